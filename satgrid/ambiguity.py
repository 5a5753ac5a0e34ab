"""Where a puzzle is ambiguous: the ambiguity report.

For one puzzle, on its shared incremental session (:class:`~satgrid.queries.PuzzleQueries`):

* **solutions, counted up to a cap**: solve, block the solution's projection on the primary
  variables behind an activation literal, solve again, until no solution is left (the count is
  exact) or the cap is reached (the count is "at least" the cap);
* **the backbone** of the decided parts: the primary literals that hold in every solution. The
  candidates start as the first solution's literals, cut down by every solution the count found;
  then the iterative algorithm of Janota, Lynce and Marques-Silva ("Algorithms for computing
  backbones of propositional formulae", AI Communications 28(2), 2015, Algorithm 2): ask for a
  solution that breaks at least one remaining candidate (one clause "not all candidates", behind
  an activation literal), with the solver's phases set to the candidates' negations so that one
  answer breaks as many as it can; each answer removes the candidates it breaks; UNSAT ends it.
  Once a literal breaks, its parts are undecided and every literal that belongs to undecided
  parts only leaves the candidates too: the report needs the values of decided parts alone, and
  a one-hot cell's "not 7" would otherwise take its own flip query (measured in
  encodings/diagnostics.md);
* **parts**: the literals are mapped to the cells or edges a player fills in, generically from
  the encoding's primary layers (:attr:`~satgrid.encoding.Encoding.layers`): a key that is an
  edge ``("h"|"v", i, j)`` is that edge; a link ``((r1, c1), (r2, c2))`` belongs to both its
  cells; any other key starts with its cell ``(r, c, ...)`` (a cell's bits). A one-hot layer
  (digits) gives a cell all its values' variables. A part is *decided* when every variable of it
  is in the backbone (the same in every solution), else *undecided*;
* **the first two solutions and their differences** (the genre's ``differences``, named by
  :func:`~satgrid.puzzle.part_name`).

Every solution counted passes the genre's independent checker. A time or conflict limit stops a
step with what it has: a count "at least n", a backbone not proved (its undecided parts are
undecided; some parts it calls decided may not be), and a note saying which.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Hashable, Iterable, Sequence

from .puzzle import is_edge, part_name
from .queries import PuzzleQueries
from .registry import GENRES, Genre
from .session import Stats
from .solver import Assignment

Part = tuple
#: The default cap of the solution count.
DEFAULT_CAP = 10


def part_keys(key: Hashable) -> list[Part]:
    """The parts (cells or edges) a primary layer's key belongs to (the module doc's rule)."""
    if is_edge(key):  # type: ignore[arg-type]
        return [key]  # type: ignore[list-item]
    if isinstance(key, tuple) and len(key) == 2 and all(isinstance(p, tuple) for p in key):
        return [tuple(p) for p in key]  # a link between two cells
    return [tuple(key[:2])]  # type: ignore[index]


def parts_of(encoding: Any) -> dict[Part, list[int]]:
    """Every part with its primary variables, in the layers' order (cells in reading order)."""
    return _layout(encoding)[0]


#: ``id(encoding) -> (encoding, parts, primary key of each variable, the parts of each variable,
#: every part's variables in order)``, the last few encodings (a re-check maps its parts once).
_LAYOUTS: dict[int, tuple[Any, dict[Part, list[int]], dict[int, Hashable], dict[int, list[Part]],
                          list[int]]] = {}


def _layout(encoding: Any) -> tuple[dict[Part, list[int]], dict[int, Hashable],
                                    dict[int, list[Part]], list[int]]:
    known = _LAYOUTS.get(id(encoding))
    if known is not None and known[0] is encoding:
        return known[1], known[2], known[3], known[4]
    parts: dict[Part, list[int]] = {}
    for lits in encoding.layers.values():
        for key, x in lits.items():
            variables = list(x.values()) if isinstance(x, dict) else [x]
            for part in part_keys(key):
                parts.setdefault(part, []).extend(variables)
    key_of = {v: k for k, v in encoding.primary.items()}
    owners: dict[int, list[Part]] = {}
    for part, variables in parts.items():
        for v in variables:
            owners.setdefault(v, []).append(part)
    variables = [v for vs in parts.values() for v in vs]
    if len(_LAYOUTS) >= 16:
        _LAYOUTS.clear()
    _LAYOUTS[id(encoding)] = (encoding, parts, key_of, owners, variables)
    return parts, key_of, owners, variables


class _Candidates(set):
    """The backbone candidates of the decided parts: a literal leaves when an assignment breaks
    it, and with it every literal whose parts are all undecided by then. The report needs the
    backbone of the decided parts only (a digit cell's "not 7" need not be proved once the cell
    is known to take two digits); a literal shared with a part still undecided about (a link of
    two cells) stays."""

    def __init__(self, lits: Any, parts: dict[Part, list[int]], owners: dict[int, list[Part]]):
        super().__init__(lits)
        self.parts, self.owners, self.undecided = parts, owners, set()
        self.top = max(owners, default=0)  # the highest primary variable

    def keep(self, assignment: Assignment) -> None:
        """Drop what ``assignment`` shows undecided."""
        model = assignment.model
        if len(model) < self.top:  # a model without every primary variable
            broken = [lit for lit in self if not assignment(lit)]
        else:  # the literals read off the model (cheaper than calling the assignment)
            broken = [lit for lit in self if model[(lit if lit > 0 else -lit) - 1] != lit]
        for lit in broken:
            for part in self.owners[abs(lit)]:
                if part in self.undecided:
                    continue
                self.undecided.add(part)
                for v in self.parts[part]:
                    if all(q in self.undecided for q in self.owners[v]):
                        self.discard(v)
                        self.discard(-v)


@dataclass
class Ambiguity:
    """The ambiguity report of one puzzle.

    ``status``: "unique", "multiple", "unsatisfiable", "solved" (a limit stopped the search
    for a second solution: one solution found, uniqueness unknown, as ``solve --unique`` says it)
    or "unknown" (a limit was reached before a first solution). ``count`` solutions were found;
    ``exact``: none is left (else there are at least ``count``; ``cap`` is the cap asked for).
    ``decided``: every decided part with the true primary keys of its value (a value of a
    boolean part that is false has none); ``undecided``: the other parts; ``complete``: the
    backbone was proved (False when a limit stopped it: parts may be called decided that are
    not). ``differences``: the parts in which the first two solutions differ."""

    puzzle: Any
    status: str
    cap: int
    count: int = 0
    exact: bool = False
    solution: Any = None
    second_solution: Any = None
    differences: list[Part] = field(default_factory=list)
    #: Per difference: how the first and the second solution fill it, in words.
    difference_words: dict[Part, tuple[str, str]] = field(default_factory=dict)
    #: The backbone literals of the decided parts, with ``parts`` (:func:`parts_of`) what
    #: :attr:`decided` and :attr:`undecided` are read from (once, when first asked).
    backbone: set[int] = field(default_factory=set)
    parts: dict[Part, list[int]] = field(default_factory=dict, repr=False)
    #: The words of a part's value in the first solution (set by :func:`analyse`).
    words: Any = field(default=None, repr=False)
    complete: bool = True
    note: str = ""
    stats: Stats = field(default_factory=Stats)
    #: The first solution's projection on the primary variables (phase hints for a re-check)
    #: and its assignment (a proof kept by :class:`satgrid.live.Editor`).
    projection: tuple = ()
    assignment: Assignment | None = field(default=None, repr=False)

    @property
    def genre(self) -> Genre:
        return GENRES[self.puzzle.genre]

    @cached_property
    def decided(self) -> dict[Part, tuple]:
        """Each decided part -> the primary keys true in its value (none: a false boolean)."""
        key_of, bone = self.words.key_of if self.words else {}, self.backbone
        return {part: tuple(key_of[v] for v in vs if v in bone) for part, vs in self.parts.items()
                if all(v in bone or -v in bone for v in vs)}

    @cached_property
    def undecided(self) -> list[Part]:
        """The parts not decided, in the layers' order (reading order)."""
        return [part for part in self.parts if part not in self.decided]

    @property
    def noun(self) -> str:
        """What the parts are: "edges" or "cells"."""
        return "edges" if self.parts and all(is_edge(k) for k in self.parts) else "cells"

    def count_text(self) -> str:
        """``exactly 3``, ``at least 10`` (the cap), or ``at least 2`` (a limit stopped it)."""
        if self.status == "unknown" and self.count == 0:
            return "unknown"
        return f"exactly {self.count}" if self.exact else f"at least {self.count}"

    def name(self, part: Part) -> str:
        return part_name(part, self.puzzle.rows, self.puzzle.cols)

    def to_json(self) -> dict[str, Any]:
        """The report's own keys (the CLI adds the puzzle's id, genre and size)."""
        g, p = self.genre, self.puzzle
        out: dict[str, Any] = {
            "status": self.status,
            "solution_count": self.count,
            "count_exact": self.exact,
            "count_cap": self.cap,
            "parts": self.noun,
            "backbone_size": len(self.decided),
            "undecided_count": len(self.undecided),
            "backbone_complete": self.complete,
            "backbone": [{"part": list(k), "name": self.name(k), "true": [list(t) for t in v],
                          "value": self.words.value(self.parts[k])} for k, v in self.decided.items()],
            "undecided": [{"part": list(k), "name": self.name(k)} for k in self.undecided],
            "differences": [{"part": list(k), "name": self.name(k),
                             "first": self.difference_words.get(k, ("", ""))[0],
                             "second": self.difference_words.get(k, ("", ""))[1]}
                            for k in self.differences],
            "solution": None if self.solution is None else g.solution_json(p, self.solution),
            "second_solution": (None if self.second_solution is None
                                else g.solution_json(p, self.second_solution)),
        }
        if self.note:
            out["note"] = self.note
        out["stats"] = self.stats.to_json()
        return out

    def summary(self) -> str:
        """One line: the status, the count, the backbone and the undecided parts (the first few)."""
        if self.status in ("unsatisfiable", "unknown") and self.count == 0:
            return self.status + (f" ({self.note})" if self.note else "")
        total = len(self.decided) + len(self.undecided)
        line = f"{self.status}: {self.count_text()} solution{'s' if self.count != 1 or not self.exact else ''}"
        if self.status == "unique":
            return line
        if self.status == "solved":
            return f"solved (uniqueness unknown): {self.note}" if self.note else "solved (uniqueness unknown)"
        line += f"; {len(self.decided)} of {total} {self.noun} decided"
        if self.undecided:
            line += f", {len(self.undecided)} undecided ({self.part_list(self.undecided, 8)})"
        if not self.complete:
            line += " (backbone not proved)"
        return line

    def part_list(self, keys: Sequence[Part], most: int = 16) -> str:
        names = [self.name(k) for k in keys[:most]]
        return ", ".join(names) + (f" and {len(keys) - most} more" if len(keys) > most else "")

    def lines(self, drawings: bool = True) -> list[str]:
        """The report as text lines (with ``drawings``, the two solutions as the genre draws them)."""
        g, p = self.genre, self.puzzle
        out = [f"solutions: {self.count_text()}" + ("" if self.exact or self.count == 0
                                                     else f" (counted up to {self.cap})")]
        if self.note:
            out.append(f"note: {self.note}")
        if self.solution is None:
            return out
        if self.status == "solved":  # one solution: no backbone to speak of
            return out + ([g.render(p, self.solution)] if drawings else [])
        total = len(self.decided) + len(self.undecided)
        proved = "" if self.complete else " (not proved: a limit stopped the backbone)"
        out.append(f"backbone: {len(self.decided)} of {total} {self.noun} are the same in every "
                   f"solution{proved}")
        if self.status == "unique":
            if drawings:
                out.append(g.render(p, self.solution))
            return out
        out.append(f"undecided: {len(self.undecided)} {self.noun}"
                   + (f": {self.part_list(self.undecided)}" if self.undecided else ""))
        if drawings:
            out.append("solution 1:")
            out.append(g.render(p, self.solution))
        if self.second_solution is not None:
            if drawings:
                out.append(f"solution 2 ({len(self.differences)} differences):")
                out.append(g.render(p, self.second_solution))
            shown = self.differences[:16]
            words = "; ".join(f"{self.name(k)}: {a} / {b}" if a or b else self.name(k)
                              for k in shown for a, b in [self.difference_words.get(k, ("", ""))])
            more = f"; and {len(self.differences) - 16} more" if len(self.differences) > 16 else ""
            out.append(f"differences (solution 1 / solution 2): {words}{more}")
        return out


class Words:
    """A part's value in words, from the genre's ``STATE.describe`` (the hint's wording) or, for
    a genre without one, from the primary keys themselves. Holds no function, so a report
    pickles (``solve --jobs`` sends results between processes)."""

    def __init__(self, g: Genre, puzzle: Any, encoding: Any, first: Assignment):
        self.genre, self.puzzle, self.first = g.name, puzzle, first
        self.key_of = _layout(encoding)[1]

    @property
    def fmt(self) -> Any:
        return GENRES[self.genre].part("STATE")

    def value(self, variables: Sequence[int]) -> str:
        """The part's value in the first solution."""
        return self.part(variables, self.first)

    def fact(self, var: int, value: bool) -> str:
        key = self.key_of[var]
        if self.fmt is None:
            return f"{'' if value else 'not '}{' '.join(map(str, key))}"
        return self.fmt.describe(self.puzzle, key, value)

    def part(self, variables: Sequence[int], holds: Any) -> str:
        """A part of one variable: that fact; of several (one-hot values, links, bits): the true
        ones the player writes down (``STATE.decision``), else every fact."""
        if len(variables) == 1:
            return self.fact(variables[0], bool(holds(variables[0])))
        if self.fmt is not None and self.fmt.part_words is not None:
            said = self.fmt.part_words(self.puzzle, {self.key_of[v]: bool(holds(v)) for v in variables})
            if said is not None:
                return said
        true = [v for v in variables if holds(v)]
        if self.fmt is not None:
            true = [v for v in true if self.fmt.decision(self.key_of[v], True)]
        if true:
            return "; ".join(self.fact(v, True) for v in true)
        return "; ".join(self.fact(v, False) for v in variables)


def analyse(queries: PuzzleQueries, puzzle: Any, first: Assignment, cap: int = DEFAULT_CAP,
            second: Assignment | None = None, unique: bool = False, solution: Any = None) -> Ambiguity:
    """The report of ``puzzle`` (its clues switched on by ``queries``) given its first solution's
    assignment (and a second one, if already found; ``unique``: the caller proved the first the
    only one, no search; ``solution``: the first decoded, if the caller has checked it already).
    Leaves the blocking clauses in place: the caller retires the queries."""
    from .api import checked

    if cap < 2:
        raise ValueError("the solution count's cap is at least 2 (a second solution decides uniqueness)")
    g, session = GENRES[puzzle.genre], queries.session
    start, before = time.perf_counter(), session.stats.copy()
    report = Ambiguity(puzzle, "unknown", cap)
    report.solution = solution if solution is not None else checked(g, puzzle, session, first)
    report.count = 1
    parts, _, owners, variables = _layout(session.encoding)
    report.parts = parts
    words = report.words = Words(g, puzzle, session.encoding, first)
    model = getattr(first, "model", ())
    # a model lists each variable v as v or -v: the literals that hold, read off it
    held = [model[v - 1] for v in variables] if len(model) >= max(owners, default=0) \
        else [v if first(v) else -v for v in variables]
    candidates = _Candidates(held, parts, owners)
    found: list[Assignment] = [first]  # the solutions counted so far
    report.projection, report.assignment = queries.project(first), first
    report.exact = unique
    blockers: list[int] = []  # made when a search needs them: none for a second solution given
    try:
        while report.count < cap and not unique:
            if second is not None and report.count == 1:
                assignment = second
            else:
                blockers += [queries.blocker(report.projection if a is first else queries.project(a))
                             for a in found[len(blockers):]]
                outcome = queries.solve(extra=blockers)
                if outcome.status == "unsat":
                    report.exact = True
                    break
                if outcome.status != "sat" or outcome.assignment is None:
                    report.note = f"limit reached while counting solutions: at least {report.count}"
                    break
                assignment = outcome.assignment
            solution = checked(g, puzzle, session, assignment)
            report.count += 1
            if report.count == 2:
                report.second_solution = solution
                report.differences = list(g.differences(puzzle, report.solution, solution))
                report.difference_words = {
                    k: (words.part(parts[k], first), words.part(parts[k], assignment))
                    for k in report.differences if k in parts}
            candidates.keep(assignment)
            found.append(assignment)
        if report.count == 1 and report.exact:
            report.status = "unique"
        elif report.count > 1:
            report.status = "multiple"
        else:  # a limit stopped the search for a second solution: the first stands, checked
            report.status = "solved"
            report.complete = False
        if report.status == "multiple" and not report.exact:
            report.complete = _backbone(queries, candidates)
            if not report.complete:
                report.note = "; ".join(filter(None, [report.note, "limit reached while proving "
                                                      "the backbone: the undecided parts found so "
                                                      "far are undecided, the rest not proved"]))
        report.backbone = set(candidates)
    finally:
        report.stats = session.stats.since(before)
        report.stats.time_s = time.perf_counter() - start
    return report


def _backbone(queries: PuzzleQueries, candidates: _Candidates) -> bool:
    """Cut ``candidates`` down to the backbone of the decided parts (the module doc's
    algorithm), in place; False when a limit stopped it (what is left may hold more)."""
    session = queries.session
    while candidates:
        session.prefer([-lit for lit in candidates])
        outcome = queries.other_solution(tuple(sorted(candidates, key=abs)))
        if outcome.status == "unsat":
            return True
        if outcome.status == "unknown" or outcome.assignment is None:
            return False
        candidates.keep(outcome.assignment)
    return True


def report(puzzle: Any, options: Any = None, cap: int = DEFAULT_CAP) -> Ambiguity:
    """The ambiguity report of ``puzzle`` on its shared session (:func:`satgrid.api.session_for`),
    within ``options.time_limit`` (wall-clock seconds for the whole report, building the
    encoding included)."""
    from . import api
    from .errors import LimitReached

    options = options if options is not None else api.Options()
    started = time.perf_counter()
    deadline = None if options.time_limit is None else time.monotonic() + options.time_limit
    try:
        with api.puzzle_queries(puzzle, options, deadline) as queries:
            out = check(queries, puzzle, cap)
            out.note = api.with_limit_note(out.note, queries.session, deadline)
    except LimitReached as exc:  # the encoding or the clues' clauses were not built in time
        out = Ambiguity(puzzle, "unknown", cap, complete=False, note=str(exc))
    out.stats.time_s = time.perf_counter() - started
    return out


def check(queries: PuzzleQueries, puzzle: Any, cap: int = DEFAULT_CAP,
          phases: Iterable[int] = ()) -> Ambiguity:
    """Solve ``puzzle`` on ``queries`` and report on it (:func:`analyse`); ``phases``: literals to
    branch towards first (a previous solution's projection, when re-checking after an edit)."""
    session = queries.session
    start, before = time.perf_counter(), session.stats.copy()
    hint = list(phases)
    if hint:
        session.prefer(hint)
    first = queries.solve()
    if first.status != "sat" or first.assignment is None:
        status = "unsatisfiable" if first.status == "unsat" else "unknown"
        out = Ambiguity(puzzle, status, cap, complete=status == "unsatisfiable",
                        note="" if status == "unsatisfiable" else "limit reached before a solution was found")
    else:
        out = analyse(queries, puzzle, first.assignment, cap)
    out.stats = session.stats.since(before)
    out.stats.time_s = time.perf_counter() - start
    return out
