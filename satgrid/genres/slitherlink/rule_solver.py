"""The rule-based solver of R. van Dam's thesis ("Takegaki", Leiden 2008, Chapters 5 and 6):
apply the logic rules, in all 8 symmetries at every entry, until nothing changes; when they are
stuck, *loop avoidance* crosses every edge that would close a loop early; repeat; then SAT search
decides what is left. The grade says which rules a puzzle needs, how many edges they decide and
whether search is needed (``encodings/slitherlink_rules.md``).

Only rules that :func:`~.logic_rules.prove` proves are used (a refuted rule is left out and
named). A rule proved only for a loop that leaves its window is applied where the puzzle has a
positive clue two or more entries outside the window, so the loop does leave it.

The propagation is event-driven rather than the thesis's triple loop: the entry conditions are
fixed by the clues, so each placement of a rule variant whose numbers match is made once, and it
fires when its last edge condition is met. Ready placements fire lowest rule number first (the
thesis lists the simple counting and vertex rules first), so "rules used" credits each edge to
the simplest rule that reached it. Placements may reach past the grid: an edge outside is a
cross (the thesis: "a location outside of the grid is always absent").
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ... import grid as geometry
from .logic_rules import Rule, cell_box, kind_of, place, prove

EdgeKey = geometry.EdgeKey
LOOP_AVOIDANCE = "loop avoidance"
#: A big-loop rule's window is its cells' box with this margin (as :func:`prove` proves it).
MARGIN = 1


@lru_cache(maxsize=8)
def usable(rules: tuple[Rule, ...]) -> tuple[tuple[tuple[Rule, bool], ...], tuple[str, ...]]:
    """((rule, needs a big loop) for each proved rule, names of the refuted ones)."""
    proof = prove(list(rules), margin=MARGIN)
    kept = tuple((v.rule, v.status == "big-loop") for v in proof.verdicts if v.sound)
    return kept, tuple(v.rule.name for v in proof.refuted)


@dataclass(frozen=True)
class Placement:
    """A rule variant placed at an entry: its edge conditions and conclusions (``None`` = an
    edge outside the grid)."""

    order: int
    name: str
    premises: tuple[tuple[EdgeKey, bool], ...]
    conclusions: tuple[tuple[EdgeKey | None, bool], ...]


def placements(clues: dict[tuple[int, int], int], rows: int, cols: int,
               rules: tuple[tuple[Rule, bool], ...]) -> list[Placement]:
    """Every placement of every variant whose numbers match the clues and whose lines lie in
    the grid (a cross outside it holds; a number or a line outside it never does)."""
    g = geometry.Grid.of(rows, cols)
    edges = set(g.edge_keys)
    positive = [p for p, k in clues.items() if k > 0]
    out = []
    for order, (rule, big) in enumerate(rules):
        for image in rule.images():
            r0, r1, c0, c1 = cell_box(image)
            for r in range(-r1 - 1, rows - r0 + 1):
                for c in range(-c1 - 1, cols - c0 + 1):
                    if big and not _leaves(positive, (r + r0, r + r1, c + c0, c + c1)):
                        continue
                    made = _placed(image, (r, c), clues, edges)
                    if made is not None:
                        out.append(Placement(order, rule.name, *made))
    return out


def _leaves(positive: list[tuple[int, int]], box: tuple[int, int, int, int]) -> bool:
    """Whether a positive clue lies clear of the window (``box`` with :data:`MARGIN`) and of the
    cells beside it, so the loop, which touches that clue's cell, has a line outside the window."""
    r0, r1, c0, c1 = box
    far = MARGIN + 1
    return any(not (r0 - far <= r <= r1 + far and c0 - far <= c <= c1 + far) for r, c in positive)


def _placed(image: Rule, anchor: tuple[int, int], clues: dict, edges: set):
    premises = []
    for pos, value in image.premises:
        key = place(pos, anchor)
        if kind_of(pos) == "entry":
            if clues.get(key) != value:
                return None
        elif key in edges:
            premises.append((key, bool(value)))
        elif value:
            return None
    conclusions = tuple((key if key in edges else None, bool(value))
                        for key, value in ((place(p, anchor), v) for p, v in image.conclusions))
    return tuple(premises), conclusions


@dataclass
class Deduction:
    """The state the rules reach: ``known`` edges (True = line), the rule or
    :data:`LOOP_AVOIDANCE` that decided each, and ``contradiction`` when a conclusion met its
    opposite (the puzzle has no solution)."""

    rows: int
    cols: int
    known: dict[EdgeKey, bool] = field(default_factory=dict)
    reason: dict[EdgeKey, str] = field(default_factory=dict)
    contradiction: str = ""

    @property
    def edges(self) -> int:
        return 2 * self.rows * self.cols + self.rows + self.cols

    def used(self) -> dict[str, int]:
        """Edges decided, by rule name (loop avoidance included)."""
        out: dict[str, int] = {}
        for why in self.reason.values():
            out[why] = out.get(why, 0) + 1
        return out


def deduce(clues: dict[tuple[int, int], int], rows: int, cols: int,
           rules: tuple[Rule, ...], loop_avoidance: bool = True) -> Deduction:
    """The rules (and loop avoidance) to a fixpoint from the empty grid."""
    kept, _ = usable(rules)
    made = placements(clues, rows, cols, kept)
    state = Deduction(rows, cols)
    watch: dict[tuple[EdgeKey, bool], list[int]] = {}
    count = [0] * len(made)
    ready: list[tuple[int, int]] = []
    for i, p in enumerate(made):
        for cond in p.premises:
            watch.setdefault(cond, []).append(i)
        if not p.premises:
            heapq.heappush(ready, (p.order, i))

    def decide(key: EdgeKey | None, value: bool, why: str) -> None:
        if key is None:
            if value:
                state.contradiction = f"{why} puts a line outside the grid"
            return
        old = state.known.get(key)
        if old is None:
            state.known[key], state.reason[key] = value, why
            for i in watch.get((key, value), ()):
                count[i] += 1
                if count[i] == len(made[i].premises):
                    heapq.heappush(ready, (made[i].order, i))
        elif old != value:
            state.contradiction = f"rule {why} contradicts rule {state.reason[key]} at edge {key}"

    while not state.contradiction:
        while ready and not state.contradiction:
            _, i = heapq.heappop(ready)
            for key, value in made[i].conclusions:
                decide(key, value, made[i].name)
        closing = _closing_edges(state, clues) if loop_avoidance and not state.contradiction else []
        if not closing:
            break
        for key in closing:
            decide(key, False, LOOP_AVOIDANCE)
    return state


def _closing_edges(state: Deduction, clues: dict) -> list[EdgeKey]:
    """Unknown edges joining the two ends of one path of lines (thesis, Chapter 6), but for an
    edge whose loop would hold every line and meet every clue (it may be the solution)."""
    g = geometry.Grid.of(state.rows, state.cols)
    lines = [k for k, v in state.known.items() if v]
    at: dict[tuple[int, int], list[EdgeKey]] = {}
    for key in lines:
        for dot in g.edge_ends(key):
            at.setdefault(dot, []).append(key)
    ends_of: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}  # end -> (other end, lines)
    for start, here in at.items():
        if len(here) != 1 or start in ends_of:
            continue
        prev, dot, size = None, start, 0
        while True:  # walk the path to its other end
            nxt = [k for k in at[dot] if k != prev]
            if len(nxt) != 1 or (prev is not None and len(at[dot]) != 2):
                break
            prev = nxt[0]
            a, b = g.edge_ends(prev)
            dot, size = (b if a == dot else a), size + 1
        ends_of[start], ends_of[dot] = (dot, size), (start, size)
    out = []
    for key in g.edge_keys:
        a, b = g.edge_ends(key)
        if key in state.known or a not in ends_of or ends_of[a][0] != b:
            continue
        if not (ends_of[a][1] == len(lines) and _meets(state, clues, key, g)):
            out.append(key)
    return out


def _meets(state: Deduction, clues: dict, key: EdgeKey, g: geometry.Grid) -> bool:
    """Whether the lines and ``key`` meet every clue."""
    lines = {k for k, v in state.known.items() if v} | {key}
    return all(sum(side in lines for side in g.sides(p)) == k for p, k in clues.items())


def solution_of(state: Deduction) -> tuple | None:
    """The edge grids when every edge is decided, else None."""
    if len(state.known) < state.edges:
        return None
    h = tuple(tuple(int(state.known["h", i, j]) for j in range(state.cols)) for i in range(state.rows + 1))
    v = tuple(tuple(int(state.known["v", i, j]) for j in range(state.cols + 1)) for i in range(state.rows))
    return h, v


@dataclass
class RuleGrade:
    """What the rules do for one puzzle, and the solution (every solution checked)."""

    puzzle: Any
    status: str
    deduction: Deduction
    search: bool
    unique: bool | None
    solution: Any = None
    refuted: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.puzzle.name or str(self.puzzle.source)

    @property
    def by_rules(self) -> int:
        return sum(why != LOOP_AVOIDANCE for why in self.deduction.reason.values())

    @property
    def by_loop_avoidance(self) -> int:
        return len(self.deduction.reason) - self.by_rules

    def rules_used(self) -> dict[str, int]:
        used = self.deduction.used()
        used.pop(LOOP_AVOIDANCE, None)
        return dict(sorted(used.items(), key=lambda kv: int(kv[0].lstrip("#")) if kv[0].lstrip("#").isdigit() else 0))

    def to_json(self) -> dict:
        return {"id": self.id, "rows": self.puzzle.rows, "cols": self.puzzle.cols,
                "status": self.status, "edges": self.deduction.edges, "by_rules": self.by_rules,
                "by_loop_avoidance": self.by_loop_avoidance, "search": self.search,
                "unique": self.unique, "rules_used": self.rules_used(),
                "contradiction": self.deduction.contradiction or None,
                "refuted_rules_left_out": list(self.refuted)}

    def line(self) -> str:
        used = ", ".join(f"{name} x{n}" for name, n in self.rules_used().items()) or "none"
        d = self.deduction
        search = "falls back to search" if self.search else "no search"
        return (f"{self.id}: {self.status}; rules decide {self.by_rules}/{d.edges} edges, loop "
                f"avoidance {self.by_loop_avoidance}; {search}; rules used: {used}")


def grade(puzzle: Any, rules: tuple[Rule, ...], loop_avoidance: bool = True) -> RuleGrade:
    """Deduce with the rules, then search the rest on satgrid's solver with the deduced edges
    assumed; uniqueness is asked without them. A search that fails only under the deduced
    edges means a rule misfired: :class:`~satgrid.errors.CheckFailed`."""
    from ... import api  # the registry imports this genre
    from ...errors import CheckFailed
    from ...queries import PuzzleQueries
    from ...registry import GENRES

    g = GENRES[puzzle.genre]
    clues = puzzle.clues()
    state = deduce(clues, puzzle.rows, puzzle.cols, rules, loop_avoidance)
    _, refuted = usable(rules)
    session, owned = api.session_for(puzzle, api.Options())
    queries = PuzzleQueries(session, clues)
    try:
        primary = session.encoding.primary
        facts = [primary["edge", *k] if v else -primary["edge", *k] for k, v in state.known.items()]
        found = queries.solve(extra=facts)
        if found.status != "sat":
            if queries.solve().status == "sat" and not state.contradiction:
                raise CheckFailed(f"internal error: {puzzle.name or puzzle.source}: the logic rules "
                                  "deduced edges that no solution has")
            return RuleGrade(puzzle, "unsatisfiable", state, True, None, refuted=refuted)
        solution = api.checked(g, puzzle, session, found.assignment)
        ruled = solution_of(state)
        if ruled is not None and g.check(puzzle, ruled):
            raise CheckFailed(f"internal error: the rules' solution breaks a rule: {g.check(puzzle, ruled)[0]}")
        unique = queries.other_solution(queries.project(found.assignment)).status == "unsat"
        search = ruled is None
        status = "solved by rules" if not search else ("unique" if unique else "multiple")
        return RuleGrade(puzzle, status, state, search, unique, solution, refuted)
    finally:
        queries.retire()
        if owned:
            session.close()
