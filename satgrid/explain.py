"""Explanations: a puzzle solved step by step, each step one forced fact with its reason.

A *step* is one fact a player writes (a cell's value, an edge on or crossed out: the genre's
``STATE.decision``) with a *reason*: clues, named rules and earlier facts that together force it.
A reason is a minimal unsatisfiable subset (MUS) under assumptions: the reason's facts, clues and
rules with the step negated are unsatisfiable, and no element can go (each is needed; proved by
a SAT call that finds a counter-model without it). Steps and reasons follow Bogaerts, Gamba and
Guns, "A framework for step-wise explaining how to solve constraint satisfaction problems"
(Artificial Intelligence 300, 2021): explain with the smallest subset of constraints and known
facts, and take cheap steps before expensive ones.

**Rules as assumptions.** An *explanation session* loads the genre's encoding with every named
rule behind a selector literal of its own: the base clauses of each span of
:attr:`~satgrid.encoding.Encoding.spans` (a span named "R: part" belongs to the global rule "R"),
and each global rule's clauses, eager clauses and lazy cuts (:class:`GuardedRule`), so a cut,
a consequence of its rule alone, only acts while that rule is assumed. Spans that only define
auxiliary variables (:data:`satgrid.model.DEFINITIONS`) stay unguarded: they never restrict a
solution. Clues are behind their selectors (:meth:`Session.selectors`); facts are assumed as
literals. The questions then are SAT calls under assumptions, the answers UNSAT cores.

**Fenced cuts.** In a SAT call the guarded connected rules (a loop's edges, a connected region)
add, from the call's second CEGAR round on, cuts through smallest separators in which the nodes
the call assumes false cost nothing (:meth:`~satgrid.connectivity.ConnectedSubgraph.fenced_cuts`):
a reason that is a fence of crossed-out edges with a gap or two is then refuted, or its gap
taken, in a round or two instead of one sub-loop reshaped a round (measured in
encodings/diagnostics.md, "Explanations").

**Parity.** Every global rule is asked for its parity clauses
(:meth:`~satgrid.global_rule.GlobalRule.parity_clauses`, none by default); the loop rule's
(:meth:`~satgrid.loop.SingleLoop.parity_clauses`) are redundant clauses for the loop's inside
and outside: a variable per face of the grid, each edge on the loop iff its two faces differ
(Jordan's curve theorem). They are behind the rule's
selector and a literal of their own (:attr:`Reasoner.parity`) that the SAT calls assume and
propagation does not: a parity argument (an even number of loop edges round any set of cells),
which the loop's plain clauses and cuts only refute by long searches, is then unit propagation
in the search, while the levels and the steps they offer stay those of propagation over the
rules as stated. Cut variables (``t_S``: some node of S is on) are preferred false when the
solver branches. Measured in encodings/diagnostics.md ("Explanations").

**Rounds** (the cheap form of the framework's greedy loop). With the facts known so far:

1. unit propagation with the rules' cuts for the partial assignment (the grading ladder's
   :class:`~satgrid.grading.Ladder`, level 0) lists the facts it fixes;
2. if none, failed-literal probing (level 1): a fact whose negation propagates to a conflict
   (a fact whose negation an earlier probe implied without a conflict is not probed);
3. if none, search (level 2): a fact whose negation is UNSAT; the facts with the smallest
   cores are shrunk and the smallest is taken (a hard step is taken alone, then propagation
   resumes).

Each new fact's reason starts from the solver's core of "everything known, the fact negated"
and is shrunk (QuickXplain first where the lazy rules are connected ones, then) by deletion
(an element stays when a counter-model kept from an earlier check obeys the rest; it goes when propagation still conflicts without it, else when a SAT call still
says UNSAT; a SAT answer proves it needed, and its model is kept); the round's steps are taken
from the smallest reason to the largest. The *difficulty* is the largest reason and the depth:
the rounds, and the longest chain of steps whose reasons use earlier steps.

**Reasons minimal for their level** (``explain(reasons="level")``, opt-in; the default is
``"mus"``, the above). A step of level 0 or 1 gets the reason a hint gets
(:meth:`Reasoner.reason` with ``proved`` False): its core shrunk by QuickXplain whose test is
the level's own propagation, with no SAT call, so that propagation from the reason proves the
step and from no smaller part of it; a smaller set may still force the step by search alone, so
the reason is not proved a MUS (the step's ``minimal`` is False). A step of level 2 still gets a
MUS. The rounds and the difficulty are as in the default, over these reasons; the steps are
chosen by the solver's cores too, but a fact's core is kept from round to round and only the
likeliest next steps are asked again (:func:`smallest_cores`). On a big grid it spares the
necessity checks, each a search of the whole puzzle, and most of the cores (measured in
encodings/diagnostics.md, "Explanations on big grids").
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Hashable, Iterable, Sequence

from .cnf import Clause, VarPool, guarded
from .connectivity import Cut, Keep, Value
from .errors import LimitReached, SatgridError
from .global_rule import GlobalRule
from .grading import LEVELS, Ladder, StateFormat, _clue_name, _listing, state_format
from .model import DEFINITIONS
from .session import Connectivity, Session
from .solver import DEFAULT_SOLVER, conflict_budget

Fact = tuple[Hashable, bool]
#: What a reason is minimal for (:func:`explain`'s ``reasons``): "mus", no element can go with
#: the step still forced (proved by SAT calls); "level", no element can go with the step's level
#: (propagation, probing) still proving it, and a MUS at the search level.
REASONS = {"mus": "minimal sets (no element can go with the step still forced)",
           "level": "minimal for their level (propagation and probing steps: no element can go "
                    "with that level still proving the step; search steps: minimal sets)"}
#: An element of a reason: ("clue", clue key), ("rule", rule name) or ("fact", primary key).
Item = tuple[str, Hashable]


class GuardedRule(GlobalRule):
    """A global rule whose every clause (its own, its eager lowering's, its lazy cuts) is
    conditional on ``selector``: assumed, the rule holds; left out, it says nothing."""

    def __init__(self, rule: GlobalRule, selector: int):
        self.rule, self.selector, self.name = rule, selector, rule.name
        #: The rule's connected part, if it makes fenced cuts (:meth:`ConnectedSubgraph.fenced_cuts`).
        self.fenceable = rule.connected_part()
        #: The assumptions of the question being asked (set by :class:`Reasoner`), and the CEGAR
        #: rounds it has taken so far.
        self.assumed: Sequence[int] = ()
        self.rounds = 0
        #: Called at each CEGAR round before the cuts are made (the reasoner's deadline check, which
        #: raises :class:`LimitReached` and so drops the question under way).
        self.on_round: Callable[[], None] | None = None

    def clauses(self, pool: VarPool) -> list[Clause]:
        return guarded(self.rule.clauses(pool), self.selector)

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        return guarded(self.rule.eager_clauses(pool), self.selector)

    def parity_clauses(self, pool: VarPool) -> list[Clause]:
        return guarded(self.rule.parity_clauses(pool), self.selector)

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None, **options: Any) -> list[Cut]:
        if self.on_round is not None:
            self.on_round()
        if not value(self.selector):  # the rule is off: an assignment breaking it is no fault
            return []
        cuts = self.rule.cuts(value, pool, keep, **options)
        self.rounds += keep is None
        if keep is None and cuts and self.fenceable is not None and self.rounds >= FENCE_FROM:
            off = {-x for x in self.assumed if x < 0}
            if off:
                cuts += self.fenceable.fenced_cuts(value, pool, off)
        return [guarded(cut, self.selector) for cut in cuts]

    def __getattr__(self, name: str) -> Any:  # clue_anchor and the like: the rule's own
        return getattr(self.rule, name)


def _mask(lits: Iterable[int]) -> int:
    """Literals as one integer, a bit per literal (bit 2v for v, 2v + 1 for -v)."""
    mask = 0
    for x in lits:
        mask |= 1 << (2 * x if x > 0 else 1 - 2 * x)
    return mask


def rule_of(span: str, global_names: Iterable[str]) -> str:
    """The rule a span of clauses belongs to: a global rule's name when the span is one of its
    parts ("R: part"), else the span's own name."""
    head = span.split(": ", 1)[0]
    return head if head in set(global_names) else span


class Reasoner:
    """One puzzle in an explanation session: which facts are forced, and why.

    ``items`` maps each clue and named rule to its selector literal; facts are literals of the
    primary variables. The session never forgets anything unsound: learnt clauses and cuts all
    carry the selectors they depend on."""

    def __init__(self, puzzle: Any, solver: str = DEFAULT_SOLVER, connectivity: Connectivity = "lazy"):
        from .registry import GENRES

        self.puzzle = puzzle
        self.format: StateFormat = state_format(puzzle)
        enc = GENRES[puzzle.genre].encode(puzzle)
        pool = enc.pool
        names = [rule.name for rule in enc.rules]
        self.rule_lits: dict[str, int] = {}

        def selector(name: str) -> int:
            if name not in self.rule_lits:
                self.rule_lits[name] = pool.fresh("rule")
            return self.rule_lits[name]

        clauses: list[Clause] = []
        covered = 0
        for span, start, end in enc.spans:
            part = enc.clauses[start:end]
            covered += end - start
            clauses += part if span in DEFINITIONS else guarded(part, selector(rule_of(span, names)))
        if covered != len(enc.clauses):  # never so for a Model's encoding; named so if it happens
            spanned = {i for _, a, b in enc.spans for i in range(a, b)}
            clauses += guarded([c for i, c in enumerate(enc.clauses) if i not in spanned],
                               selector("the rules"))
        rules = [GuardedRule(rule, selector(rule.name)) for rule in enc.rules]
        parity = [clause for rule in rules for clause in rule.parity_clauses(pool)]
        #: The literal behind the rules' redundant parity clauses (:meth:`SingleLoop.parity_clauses`),
        #: assumed by SAT calls (:meth:`unsat`) and not by propagation (:meth:`propagated`), or
        #: None: the parity they add is unit propagation in a search but would change what the
        #: propagation level finds (and the reasons chosen from it).
        self.parity: int | None = pool.fresh("parity") if parity else None
        if self.parity is not None:
            clauses += guarded(parity, self.parity)
        self._fenced = [rule for rule in rules if rule.fenceable is not None]
        self.session = Session(replace(enc, clauses=clauses, rules=rules, spans=[]), solver, connectivity)
        lazy = self.session.lazy_rules
        #: Reasons are first shrunk by QuickXplain (:meth:`_quickxplain`) when every lazy rule is
        #: a connected one: its counter-models are kept, so most of the many checks cost no SAT
        #: call (measured without a gain for the other lazy rules: encodings/diagnostics.md).
        self._halving = bool(lazy) and all(rule.fenceable is not None for rule in lazy)
        self.primary = enc.primary
        #: Variables up to this one have their phases as the solver sets them; later ones (the
        #: clues' and cuts' auxiliaries) are preferred false (:meth:`unsat`).
        self._phased = enc.pool.top
        clues = puzzle.clues()
        self.clues = clues
        self.clue_lits = self.session.selectors(clues)
        self.ladder = Ladder(self.session, [])
        self.sat_calls = 0
        #: Elements kept in reasons because a check ran out of time (not proved needed).
        self.unproved = 0
        #: Counter-models seen so far, each the bit mask (:func:`_mask`) of its true literals over
        #: the primary variables and selectors: a model of the whole session (every rule it
        #: switches on holds), so any assumptions all true in it are satisfiable, with no SAT
        #: call; a model obeys some literals when their mask is inside its own (one AND of two
        #: integers, not a set lookup per literal).
        self._witness_masks: list[int] = []
        self.witness_hits = 0
        #: The solution's literals, once known: the solver's preferred phases.
        self.phases: list[int] = []
        #: Monotonic clock time after which no SAT call, propagation or CEGAR round starts (None:
        #: no limit).
        self.deadline: float | None = None
        for rule in rules:
            rule.on_round = self._in_time
        self._watched = sorted({*self.primary.values(), *self.clue_lits.values(), *self.rule_lits.values()})

    def close(self) -> None:
        self.session.close()

    # -- literals ---------------------------------------------------------------------------
    def lit(self, fact: Fact) -> int:
        var = self.primary[fact[0]]
        return var if fact[1] else -var

    def items(self) -> dict[Item, int]:
        """Every clue and rule, as its selector literal."""
        out: dict[Item, int] = {("clue", k): v for k, v in self.clue_lits.items()}
        out.update((("rule", name), v) for name, v in self.rule_lits.items())
        return out

    def _lits(self, items: dict[Item, int], known: dict[Hashable, bool]) -> dict[Item, int]:
        # facts first: the solver propagates assumptions in order, so its cores lean on facts
        out = {("fact", k): self.lit((k, v)) for k, v in known.items()}
        out.update(items)
        return out

    # -- questions --------------------------------------------------------------------------
    def _in_time(self) -> None:
        """Raise :class:`LimitReached` once :attr:`deadline` has passed."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise LimitReached("time limit reached while explaining")

    def propagated(self, lits: Sequence[int], extra: Sequence[int] = ()) -> tuple[bool, set[int]]:
        self._in_time()
        ok, fixed = self.ladder.propagate(list(lits), list(extra))
        return ok, set(fixed)

    def unsat(self, lits: Sequence[int], bounded: bool = False, seconds: float | None = None,
              rounds: int | None = None) -> bool | None:
        """A SAT call with the rules' CEGAR loop: are ``lits`` contradictory? ``bounded``: at
        most ``rounds`` CEGAR rounds (default :data:`CHECK_ROUNDS`; and the solver's conflict
        limit a round), None when they run out; ``seconds``: also a deadline (for a solver
        without a conflict limit)."""
        self._in_time()
        self.sat_calls += 1
        bounded = bounded or seconds is not None
        if seconds is not None:
            self.session.set_time_limit(seconds)
        for rule in self._fenced:
            rule.assumed, rule.rounds = lits, 0
        top = self.session.encoding.pool.top
        if top > self._phased:
            # a cut's variable t_S stands for "some node of S is on": implied when one is, and
            # best false otherwise (branching it true forces a guard of the cut for nothing)
            self.session.prefer([-v for v in range(self._phased + 1, top + 1)])
            self._phased = top
        switched = [self.ladder.act] if self.parity is None else [self.ladder.act, self.parity]
        try:
            outcome = self.session.solve([*lits, *switched], need_model=False,
                                         rounds=(rounds or CHECK_ROUNDS) if bounded else None)
        finally:
            for rule in self._fenced:
                rule.assumed = ()
            if seconds is not None:
                self.session.set_deadline(None)
        if outcome.status == "unknown":
            if bounded:
                return None
            raise SatgridError("a limit was reached while explaining")
        if outcome.assignment is not None:
            model = outcome.assignment.model
            self._witness_masks.append(_mask(model[v - 1] for v in self._watched if v <= len(model)))
        return outcome.status == "unsat"

    def needed_check(self, lits: Sequence[int]) -> bool | None:
        """:meth:`unsat` for a necessity check: first near the solution (its phases, at most
        :data:`QUICK_CONFLICTS` conflicts a CEGAR round and :data:`QUICK_ROUNDS` rounds), then
        from a blank grid (at most :data:`BLANK_CONFLICTS` a round, :data:`CHECK_ROUNDS`
        rounds). Only conflicts and rounds are counted, no clock (a deadline would make the
        solver cut its search into slices sized by the conflicts a second it sees, so the
        search, and the reasons found, would change with the machine's load); a solver without
        a conflict limit gets :data:`CHECK_SECONDS` instead."""
        solver = self.session.solver
        if not hasattr(solver, "conflict_limit"):  # a solver without one: a deadline
            return self.unsat(lits, seconds=CHECK_SECONDS)

        def limited(conflicts: int, rounds: int = CHECK_ROUNDS) -> bool | None:
            with conflict_budget(solver, conflicts):
                return self.unsat(lits, bounded=True, rounds=rounds)

        if not self.phases:  # no solution to search near (an unsatisfiable puzzle's conflict)
            return limited(BLANK_CONFLICTS)
        answer = limited(QUICK_CONFLICTS, QUICK_ROUNDS)
        if answer is not None:
            return answer
        self.sat_calls -= 1  # one check
        self.session.prefer([-v for v in self.primary.values()])
        try:
            return limited(BLANK_CONFLICTS)
        finally:
            self.session.prefer(self.phases)

    def witnessed(self, lits: Sequence[int]) -> bool:
        """Whether a counter-model seen before obeys every literal of ``lits`` (so they are
        satisfiable: an element left out of them is needed, with no SAT call)."""
        wanted = _mask(lits)
        for model in reversed(self._witness_masks):  # the latest are the likeliest (near this step)
            if model & wanted == wanted:
                self.witness_hits += 1
                return True
        return False

    def solution(self, lits: Sequence[int]) -> dict[Hashable, bool] | None:
        """The primary values of one assignment obeying ``lits`` (None: there is none); ``lits``
        are every clue and rule, so the assignment is a solution the steps end in: it passes the
        genre's checker first (:func:`satgrid.api.checked`), as every solution reported does."""
        from .api import checked
        from .registry import GENRES

        self._in_time()
        self.session.set_deadline(self.deadline)
        try:
            outcome = self.session.solve([*lits, self.ladder.act])
        finally:
            self.session.set_deadline(None)
        if outcome.status == "unknown":
            raise LimitReached("time limit reached before a solution was found")
        if outcome.status != "sat":
            return None
        assert outcome.assignment is not None
        checked(GENRES[self.puzzle.genre], self.puzzle, self.session, outcome.assignment)
        return {k: outcome.assignment(v) for k, v in self.primary.items()}

    def core(self, lits: Sequence[int]) -> list[int] | None:
        """After ``lits`` are found contradictory: the solver's core among them (None if SAT)."""
        if not self.unsat(lits):
            return None
        wanted = set(lits)
        return [x for x in self.session.core() if x in wanted]

    def reason(self, items: dict[Item, int], target: int | None,
               core: list[int] | None = None, level: int | None = None,
               proved: bool = True) -> list[Item]:
        """A minimal subset of ``items`` that, with ``-target`` (None: alone), is unsatisfiable.

        Deletion from the solver's core (or ``core``): an element stays at once when a
        counter-model seen before (of this reason's or an earlier one's checks: a model of the
        whole session) obeys the rest with ``-target`` (no SAT call; the reuse of models of
        Marques-Silva and Lynce, "On improving MUS extraction algorithms", SAT 2011); it goes
        when unit propagation (with cuts) still conflicts without it, or else a SAT call still
        says UNSAT (then the set shrinks to that call's core); a SAT answer keeps it (and is kept
        as a counter-model). The SAT call searches near the solution first (its phases) with
        :data:`QUICK_CONFLICTS` conflicts a round, then from a blank grid (a counter-model of a
        few clues and a long chain of facts often lies near an empty grid) with
        :data:`BLANK_CONFLICTS` (:meth:`needed_check`). The result is a MUS (an element whose
        check runs out of its limits is kept: :attr:`unproved`).

        Where every lazy rule is a connected one (:attr:`_halving`), the core is first shrunk
        by :meth:`_quickxplain` (facts preferred, clues and rules the first to go), which drops
        a run of unneeded elements of a long core in one check; the deletion then only proves
        each element left needed, nearly always by a kept counter-model.

        With ``proved`` False, a step of ``level`` 0 or 1 is shrunk by its level's own test
        instead, with no SAT call (QuickXplain whose test is unit propagation with the rules'
        cuts: at level 0 propagation from the reason fixes the step, at level 1 propagation from
        the reason and the step negated conflicts), from the core when it passes the test, else
        from all of ``items``: a reason from which the step's level proves it, and from which no
        element can go with that still so. It is not proved a MUS (:attr:`unproved` counts it):
        a smaller subset may force the step by search alone. :func:`satgrid.grading.hint` gives
        such reasons, whose "unit propagation from ..." is then exactly true."""
        by_lit: dict[int, Item] = {}
        for item, x in items.items():
            by_lit.setdefault(x, item)
        extra = [] if target is None else [-target]
        if not proved and target is not None:
            return self._propagation_reason(items, by_lit, target, core, level)
        if core is None:
            core = self.core([*items.values(), *extra])
            if core is None:
                raise SatgridError("internal error: the fact to explain is not forced")
        kept = [x for x in dict.fromkeys(core) if x in by_lit]
        # clues first (the first tried are the first to go): a step that follows from the facts
        # just found reads as the next link of a chain, as a player finds it
        kept.sort(key=lambda x: by_lit[x][0] == "fact")
        if self._halving and len(kept) > 1:
            unproved = self.unproved
            # facts preferred (kept), as below; clues and rules last (the first to go)
            order = [x for x in kept if by_lit[x][0] == "fact"] + [x for x in kept if by_lit[x][0] != "fact"]
            inside = set(self._quickxplain(order, extra))
            kept = [x for x in kept if x in inside]
            self.unproved = unproved  # the deletion below proves each element needed
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + 1:]
            if self.witnessed([*trial, *extra]):
                i += 1
                continue
            if not self.propagated(trial, extra)[0]:
                kept = trial
                continue
            answer = self.needed_check([*trial, *extra])
            if answer is not True:  # needed, or not settled in time: kept (the reason stays valid)
                self.unproved += answer is None
                i += 1
                continue
            smaller = [x for x in self.session.core() if x in set(trial)]
            inside = set(smaller)
            kept = [x for x in trial if x in inside]
        return [by_lit[x] for x in kept]

    def _refuted(self, lits: list[int], extra: list[int]) -> tuple[bool, set[int] | None]:
        """Whether ``lits`` and ``extra`` are contradictory, as :meth:`reason` asks it (a kept
        counter-model, propagation, then :meth:`needed_check`; a check out of its limits counts
        as not contradictory), with the solver's core when a SAT call said so."""
        if self.witnessed([*lits, *extra]):
            return False, None
        if not self.propagated(lits, extra)[0]:
            return True, None
        if self.needed_check([*lits, *extra]) is True:
            return True, set(self.session.core())
        return False, None

    def _propagation_reason(self, items: dict[Item, int], by_lit: dict[int, Item], target: int,
                            core: list[int] | None, level: int | None) -> list[Item]:
        """:meth:`reason` with ``proved`` False: shrunk by the step's own level (see there)."""
        if level == 0:  # propagation from the reason fixes the step
            def refuted(lits: list[int], extra: list[int]) -> tuple[bool, set[int] | None]:
                ok, fixed = self.propagated(lits)
                return not ok or target in fixed, None
        elif level == 1:  # propagation from the reason and the step negated conflicts
            def refuted(lits: list[int], extra: list[int]) -> tuple[bool, set[int] | None]:
                return not self.propagated(lits, [-target])[0], None
        else:
            raise SatgridError("internal error: only a propagation or probing step has a reason "
                               "shrunk by propagation")
        if core is None or not refuted(core, [])[0]:
            core = list(items.values())  # the level refutes them all, if not the core
        kept = [x for x in dict.fromkeys(core) if x in by_lit]
        # facts preferred (kept), as below; clues and rules last (the first to go)
        order = [x for x in kept if by_lit[x][0] == "fact"] + [x for x in kept if by_lit[x][0] != "fact"]
        self.unproved += 1
        return [by_lit[x] for x in self._quickxplain(order, [], refuted)]

    def _quickxplain(self, order: list[int], extra: list[int],
                     refuted: Callable[[list[int], list[int]], tuple[bool, set[int] | None]] | None = None
                     ) -> list[int]:
        """Junker's QuickXplain ("QUICKXPLAIN: preferred explanations and relaxations for
        over-constrained problems", AAAI 2004): a subset of ``order`` that with ``extra`` is
        unsatisfiable (``order`` with ``extra`` is), by halving: the first half is kept as
        background while the second is searched, so runs of unneeded elements go in one check.
        Earlier elements are preferred. When the background with the first half is refuted by a
        SAT call, the first half is cut to that call's core before it is searched. A wrong "not
        contradictory" (a check out of its limits) only keeps more elements; the result is
        still unsatisfiable."""
        test = refuted or self._refuted

        def qx(base: list[int], check: bool, candidates: list[int]) -> tuple[list[int], set[int] | None]:
            if check:
                gone, core = test(base, extra)
                if gone:
                    return [], core
            if len(candidates) <= 1:  # none: the base was refuted by a core (below)
                return candidates, None
            half = len(candidates) // 2
            first = candidates[:half]
            later, core = qx(base + first, True, candidates[half:])
            if not later and core is not None:  # base + first is contradictory: only its core counts
                first = [x for x in first if x in core]
            return qx(base + later, bool(later), first)[0] + later, None
        return qx([], False, order)[0]

@dataclass
class Step:
    """One forced fact with its reason: ``clues``, ``rules`` (their names) and earlier ``facts``;
    ``level`` 0 propagation, 1 probing, 2 search; ``round`` the round it was found in, ``depth``
    1 + the deepest step among its facts."""

    fact: Fact
    text: str
    clues: list[Hashable]
    rules: list[str]
    facts: list[Fact]
    level: int
    round: int
    depth: int
    why: str = ""
    #: False when some element of the reason is kept because its check ran out of its limits, or
    #: when the reason is only minimal for its level (``explain(reasons="level")``).
    minimal: bool = True

    @property
    def size(self) -> int:
        return len(self.clues) + len(self.rules) + len(self.facts)

    def to_json(self) -> dict[str, Any]:
        key, value = self.fact
        return {"key": list(key), "value": value, "text": self.text, "level": self.level,
                "method": LEVELS[self.level], "round": self.round, "depth": self.depth,
                "size": self.size, "clues": [_json_key(k) for k in self.clues], "rules": self.rules,
                "facts": [[list(k), v] for k, v in self.facts], "why": self.why,
                "minimal": self.minimal}


def _json_key(key: Hashable) -> Any:
    return list(key) if isinstance(key, tuple) else key


@dataclass
class Explanation:
    """The answer of :func:`explain`. ``status``: "solved" (the steps decide every fact),
    "multiple" (several solutions: the steps are the forced part, ``undecided`` facts are left),
    "unsatisfiable" (no solution; ``conflict`` names a minimal set of clues and rules that
    contradict each other), "unknown" (the time limit was reached: the steps so far, each
    proved as in a complete run, and ``undecided`` facts not explained)."""

    status: str
    message: str
    steps: list[Step] = field(default_factory=list)
    rounds: int = 0
    undecided: int = 0
    conflict: list[str] = field(default_factory=list)
    time_s: float = 0.0
    sat_calls: int = 0
    #: What the reasons are minimal for: a key of :data:`REASONS`.
    reasons: str = "mus"

    @property
    def largest(self) -> int:
        return max((s.size for s in self.steps), default=0)

    @property
    def depth(self) -> int:
        return max((s.depth for s in self.steps), default=0)

    @property
    def facts(self) -> dict[Hashable, bool]:
        return dict(s.fact for s in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "message": self.message,
                "difficulty": {"largest_reason": self.largest, "depth": self.depth,
                               "rounds": self.rounds,
                               "levels": {LEVELS[n]: sum(s.level == n for s in self.steps) for n in LEVELS}},
                "undecided": self.undecided, "conflict": self.conflict, "reasons": self.reasons,
                "time_s": round(self.time_s, 6), "steps": [s.to_json() for s in self.steps]}

    def text(self) -> str:
        lines = [f"{n}. {s.text}: {s.why}" for n, s in enumerate(self.steps, 1)]
        if self.reasons != "mus" and self.steps:
            lines.append(f"reasons: {REASONS[self.reasons]}")
        return "\n".join([*lines, self.message]) + "\n"


def reason_words(reasoner: Reasoner, reason: Sequence[Item], known: dict[Hashable, bool]) -> tuple[
        list[Hashable], list[str], list[Fact], str]:
    """A reason split into clues, rule names and facts, and worded: 'as r2c2 is shaded; with
    clue 3 at r1c2; by the rule "shaded cells do not touch"'."""
    fmt, puzzle = reasoner.format, reasoner.puzzle
    clues = [k for kind, k in reason if kind == "clue"]
    rules = [str(k) for kind, k in reason if kind == "rule"]
    facts = [(k, known[k]) for kind, k in reason if kind == "fact"]
    parts = []
    if facts:
        parts.append("as " + _listing([fmt.describe(puzzle, k, v) for k, v in facts], 12))
    if clues:
        parts.append("with " + _listing([_clue_name(fmt, k, reasoner.clues[k], puzzle) for k in clues], 12))
    if rules:
        parts.append(f"by the rule{'s' if len(rules) > 1 else ''} " + _listing([f'"{r}"' for r in rules], 12))
    words = "; ".join(parts) or "the rules alone"
    return clues, rules, facts, words


def forced_facts(reasoner: Reasoner, items: dict[Item, int], known: dict[Hashable, bool],
                 candidates: Sequence[Fact], most: int | None = None) -> tuple[int, list[Fact]]:
    """The weakest level (0 propagation, 1 probing, 2 search) that forces some of
    ``candidates`` from ``items`` and ``known``, and the facts it forces (level 2 with none:
    nothing more is forced); at level 2 (a SAT call a fact) the first ``most`` of them."""
    lits = list(reasoner._lits(items, known).values())
    ok, fixed = reasoner.propagated(lits)
    if not ok:
        raise SatgridError("the known facts contradict the puzzle")
    found = [f for f in candidates if reasoner.lit(f) in fixed]
    if found:
        return 0, found
    open_ = [f for f in candidates if -reasoner.lit(f) not in fixed]
    # a literal implied by a probe that succeeded cannot fail (propagation is monotone: the
    # grading ladder's probing skips it too)
    harmless: set[int] = set()
    found = []
    for f in open_:
        probe = -reasoner.lit(f)
        if probe in harmless:
            continue
        ok, implied = reasoner.propagated(lits, [probe])
        if ok:
            harmless |= implied
        else:
            found.append(f)
    if found:
        return 1, found
    found = []
    for f in open_:
        if most is not None and len(found) >= most:
            break
        if reasoner.unsat([*lits, -reasoner.lit(f)]):
            found.append(f)
    return 2, found


def explain_step(reasoner: Reasoner, items: dict[Item, int], known: dict[Hashable, bool],
                 fact: Fact, level: int, round_: int = 0,
                 depths: dict[Hashable, int] | None = None, core: list[int] | None = None,
                 proved: bool = True) -> Step:
    """The step that writes ``fact`` from ``items`` and ``known``, with a minimal reason
    (shrunk from ``core``, a refutation core, when given; ``proved``: as
    :meth:`Reasoner.reason`)."""
    lits = reasoner._lits(items, known)
    unproved = reasoner.unproved
    reason = reasoner.reason(lits, reasoner.lit(fact), core, level, proved)
    clues, rules, facts, words = reason_words(reasoner, reason, known)
    depth = 1 + max(((depths or {}).get(k, 0) for k, _ in facts), default=0)
    why = f"{words} ({LEVELS[level]})"
    text = reasoner.format.describe(reasoner.puzzle, *fact)
    return Step(fact, text, clues, rules, facts, level, round_, depth, why, reasoner.unproved == unproved)


#: The most one "is this element needed?" check of a reason may take (seconds) with a solver
#: that takes no conflict limit (the others are bounded by conflicts and rounds alone). An
#: element whose check runs out of any limit is kept, and its step's reason is not proved minimal.
CHECK_SECONDS = 2.0
#: The CEGAR round of a question from which fenced cuts (:meth:`ConnectedSubgraph.fenced_cuts`)
#: join the rules' own: most questions need one round or two, where a fence costs more than it
#: saves.
FENCE_FROM = 2
#: The most CEGAR rounds one check may take (in each of its two parts; a check that needs more
#: is kept like one out of time). A rule whose cuts spin without another rule would otherwise
#: take thousands of rounds (sized regions without "one number per cell" did, until its cuts read
#: every number of a cell).
CHECK_ROUNDS = 200
#: The first part of a check, searched near the solution (conflicts a CEGAR round); the rest is
#: searched from a blank grid (:data:`BLANK_CONFLICTS` a round).
QUICK_CONFLICTS = 1000
#: The most CEGAR rounds of that first part: a check that has not settled near the solution by
#: then goes on from a blank grid. Nearly every check settles near the solution within a dozen
#: rounds; one that runs on is a walk of sub-loops the cuts reshape one round at a time, which
#: the blank grid often answers at once (figures: encodings/diagnostics.md, "A fourth pass
#: (29 Nov ...): a cap on the near part of a check").
QUICK_ROUNDS = 100
BLANK_CONFLICTS = 10_000

#: At the search level, how many of the facts with the smallest cores are shrunk to a MUS.
SEARCH_CANDIDATES = 4
#: With reasons minimal for their level, at levels 0 and 1: how many of the facts whose cores,
#: kept from earlier rounds, are the smallest are asked for their cores again each round
#: (:func:`smallest_cores`). Asking every forced fact each round, a SAT call each, took most of
#: the time left on a big grid (encodings/diagnostics.md, "Explanations on big grids").
LEVEL_CANDIDATES = 12


def explain(puzzle: Any, solver: str = DEFAULT_SOLVER, connectivity: Connectivity = "lazy",
            time_limit: float | None = None, reasons: str = "mus") -> Explanation:
    """``puzzle`` solved by steps (see the module doc): "solved", "multiple" (the forced part
    explained), "unsatisfiable", or "unknown" when ``time_limit`` wall-clock seconds (building
    the encoding included) run out. ``reasons``: "mus" (every reason a minimal unsatisfiable
    subset) or "level" (reasons of propagation and probing steps minimal for their level, as a
    hint's: see the module doc).

    The limit is checked before every SAT call, propagation and CEGAR round, never inside the
    solver's search (a necessity check stays bounded by conflicts and rounds alone, so a step's
    reason does not depend on the machine's speed); the round of steps under way when the limit
    passes is dropped, so every step reported is proved as in a run without a limit, and the
    overrun is at most one call of the solver."""
    if reasons not in REASONS:
        raise SatgridError(f"unknown kind of reasons {reasons!r} (one of {', '.join(REASONS)})")
    start = time.process_time()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    reasoner = Reasoner(puzzle, solver, connectivity)
    reasoner.deadline = deadline
    try:
        out = _explain(reasoner, reasons == "mus")
        out.sat_calls, out.reasons = reasoner.sat_calls, reasons
    finally:
        reasoner.close()
    out.time_s = time.process_time() - start
    return out


def _explain(reasoner: Reasoner, proved: bool = True) -> Explanation:
    puzzle, fmt = reasoner.puzzle, reasoner.format
    items = reasoner.items()
    try:
        solution = reasoner.solution(list(items.values()))
    except LimitReached:
        return Explanation("unknown", "the time limit was reached before a solution was found")
    if solution is None:
        try:
            conflict = reasoner.reason(items, None)
        except LimitReached:
            return Explanation("unknown", "the puzzle has no solution; the time limit was reached "
                               "before a smallest set of clues and rules contradicting each other "
                               "was found")
        _, rules, _, _ = reason_words(reasoner, conflict, {})
        names = [_clue_name(fmt, k, reasoner.clues[k], puzzle) for kind, k in conflict if kind == "clue"]
        names += [f'the rule "{r}"' for r in rules]
        return Explanation("unsatisfiable", "the puzzle has no solution: "
                           + (_listing(names, 12) or "the rules") + " contradict each other",
                           conflict=names)
    # counter-models (a reason without one element) are near the solution: searching there first
    # spares most CEGAR rounds of a global rule
    reasoner.phases = [reasoner.lit(f) for f in solution.items()]
    reasoner.session.prefer(reasoner.phases)
    shown = fmt.shown(puzzle)
    todo = [(k, v) for k, v in solution.items() if k not in shown and fmt.decision(k, v)]
    known: dict[Hashable, bool] = {}
    depths: dict[Hashable, int] = {}
    cores: dict[Fact, list[int]] = {}
    steps: list[Step] = []
    rounds = 0
    while todo:
        try:
            level, found = forced_facts(reasoner, items, known, todo)
            if not found:
                break
            cached = None if proved or level == 2 else cores
            made = [explain_step(reasoner, items, known, f, level, rounds + 1, depths, core,
                                 proved or level == 2)
                    for f, core in smallest_cores(reasoner, items, known, found, level, cached)]
        except LimitReached:
            return Explanation("unknown", f"the time limit was reached after {len(steps)} "
                               f"{'step' if len(steps) == 1 else 'steps'} and {rounds} "
                               f"{'round' if rounds == 1 else 'rounds'}: {len(todo)} "
                               f"{'fact is' if len(todo) == 1 else 'facts are'} not explained",
                               steps, rounds, len(todo))
        rounds += 1
        made.sort(key=lambda s: s.size)
        if level == 2:
            made = made[:1]
        for step in made:
            steps.append(step)
            depths[step.fact[0]] = step.depth
        known.update(s.fact for s in made)
        done = {s.fact for s in made}
        todo = [f for f in todo if f not in done]
    if todo:
        return Explanation("multiple", f"the puzzle is not unique: {len(todo)} "
                           f"{'fact is' if len(todo) == 1 else 'facts are'} left undecided after "
                           f"{len(steps)} forced {'step' if len(steps) == 1 else 'steps'}",
                           steps, rounds, len(todo))
    largest = max((s.size for s in steps), default=0)
    return Explanation("solved", f"solved in {len(steps)} steps and {rounds} rounds; the largest "
                       f"reason has {largest} elements, the longest chain of steps is "
                       f"{max((s.depth for s in steps), default=0)}", steps, rounds)


def smallest_cores(reasoner: Reasoner, items: dict[Item, int], known: dict[Hashable, bool],
                   found: list[Fact], level: int, cached: dict[Fact, list[int]] | None = None
                   ) -> list[tuple[Fact, list[int]]]:
    """The facts of ``found`` whose refutation cores (with everything known) are the smallest,
    with their cores: the next steps to shrink and take. At the search level at most
    :data:`SEARCH_CANDIDATES` of them (a hard step is taken alone).

    With ``cached`` (fact -> its core from an earlier round, kept up to date here), only the
    facts never asked and the :data:`LEVEL_CANDIDATES` with the smallest cached cores are asked
    again, and the steps are chosen among those: a core found earlier stays a refutation (the
    facts known only grow), but it may have shrunk with the facts found since, so the likeliest
    next steps are asked afresh (a lazy greedy choice: a fact whose old core is large comes up
    once the smaller ones are taken)."""
    lits = list(reasoner._lits(items, known).values())
    asked = found
    if cached is not None:
        old = sorted((f for f in found if f in cached), key=lambda f: len(cached[f]))
        fresh = {f for f in found if f not in cached} | set(old[:LEVEL_CANDIDATES])
        asked = [f for f in found if f in fresh]
    sized = []
    for f in asked:
        core = reasoner.core([*lits, -reasoner.lit(f)])
        if core is None:
            raise SatgridError("internal error: a forced fact has no refutation")
        if cached is not None:
            cached[f] = core
        sized.append((len(core), f, core))
    sized.sort(key=lambda x: x[0])
    smallest = sized[0][0]
    chosen = [(f, core) for n, f, core in sized if n <= smallest]
    return chosen[:SEARCH_CANDIDATES] if level == 2 else chosen


# -- drawings -----------------------------------------------------------------------------------
def _part(key: Hashable, one_hot: set[str]) -> tuple[tuple, str | None] | None:
    """A primary key as a drawable part (a cell, an edge or a link) and a label (one-hot
    values), or None."""
    if not isinstance(key, tuple):
        return None
    name, rest = key[0], key[1:]
    if len(rest) == 3 and rest[0] in ("h", "v"):
        return rest, None
    if len(rest) == 3 and name in one_hot:
        return rest[:2], str(rest[2])
    if len(rest) == 4:
        return (rest[:2], rest[2:]), None
    if len(rest) == 2:
        return rest, None
    return None


def step_svgs(puzzle: Any, explanation: Explanation) -> list[str]:
    """One SVG per step: the puzzle with the facts so far (blue), the step's fact (red), the
    facts of its reason (orange) and the cells of its clues marked (yellow); the title says the
    step and its reason, the legend its rules."""
    from . import render_svg as svg
    from .registry import GENRES

    layers = GENRES[puzzle.genre].encode(puzzle).layers
    one_hot = {name for name, lits in layers.items() if lits and isinstance(next(iter(lits.values())), dict)}
    out = []
    known: list[Fact] = []
    for n, step in enumerate(explanation.steps, 1):
        used = set(step.facts)

        def drawn(facts: Iterable[Fact]) -> list[tuple[tuple, bool, str | None]]:
            parts = []
            for key, value in facts:
                part = _part(key, one_hot)
                if part is not None:
                    parts.append((part[0], value, part[1]))
            return parts

        clue_cells = [k for k in step.clues if isinstance(k, tuple) and len(k) == 2
                      and all(isinstance(x, int) for x in k)]
        fact_cells = [p for p, _, _ in drawn(step.facts) if len(p) == 2 and all(isinstance(x, int) for x in p)]
        overlay = [*svg.marked([*clue_cells, *fact_cells]),
                   *svg.facts(drawn(f for f in known if f not in used), svg.BLUE, "fact"),
                   *svg.facts(drawn(step.facts), "#e07b00", "fact reason"),
                   *svg.facts(drawn([step.fact]), svg.RED, "fact step")]
        legend = ["red = this step; orange, yellow = its reason"] + [f"rule: {r}" for r in step.rules]
        out.append(svg.svg(puzzle, None, title=f"step {n}: {step.text}", overlay=overlay, legend=legend))
        known.append(step.fact)
    return out
