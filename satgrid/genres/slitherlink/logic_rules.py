"""Local deduction rules for Slitherlink in R. van Dam's ``s``/``e``/``q`` notation ("Takegaki",
bachelor thesis, Leiden 2008, Chapter 5 and Appendix A): the rule files, their symmetries, and a
soundness proof of each rule by SAT. ``encodings/slitherlink_rules.md`` documents the format,
the reconstruction of the thesis's 36 rules (``takegaki.rules``) and what "sound" means.

A rule is a set of start conditions (``s``: an entry holds a number, an edge is a line or a
cross) and conclusions (``e``: an edge is a line or a cross), at coordinates relative to an
entry on the doubled lattice: entries at (even, even), edges at (even, odd) and (odd, even),
vertices (odd, odd), the first coordinate to the right (x), the second down (y). A rule applies
in each of the 8 symmetries of the square (:meth:`Rule.images`).

Soundness (:func:`prove`): the pattern is embedded in a window, its cells' bounding box with a
margin of free cells. A *local completion* sets every window edge so that every start condition
holds, every vertex inside the window has 0 or 2 lines and every vertex on the window's rim at
most 2 (its other edges lie outside, free). Two readings of the loop rule:

* *strict*: a closed loop wholly inside the window is allowed only when it is every line of the
  window (then it is the puzzle's whole loop);
* *big loop* (the thesis's own assumption, Chapter 5: "chances are extremely small that a puzzle
  would consist of only this very small loop"): no closed loop lies wholly inside the window,
  i.e. the puzzle's loop leaves the window.

A rule is *proved* when every strict completion meets every conclusion, *proved for a big loop*
when only every big-loop completion does, and *refuted* otherwise, with a big-loop completion
that breaks a conclusion as the counterexample. Both are SAT questions, one per conclusion (the
conclusion negated as an assumption); closed loops are cut lazily (CEGAR, as
:mod:`satgrid.loop` cuts sub-loops). Every completion extends to a real puzzle around the window
(paths leaving the rim can be joined outside into one loop), so the window's margin does not
weaken the proof; a pattern met at the grid's border is the same window with the outside edges
crossed, which the thesis's reading of off-grid crosses matches.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable, Literal

from pysat.solvers import Solver

from ... import grid as geometry
from ...errors import ParseError
from ...reader import read_text

Pos = tuple[int, int]
Condition = tuple[Pos, int]
EdgeKey = geometry.EdgeKey

#: The rules shipped with the package (the thesis's Appendix A, reconstructed).
DEFAULT_RULES = "takegaki.rules"
#: The 8 symmetries of the square acting on (x, y): identity, rotations, mirrors.
SYMMETRIES = ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
              (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0))


def kind_of(pos: Pos) -> str:
    """``entry``, ``edge`` or ``vertex``: what lies at a relative position."""
    odd = pos[0] % 2 + pos[1] % 2
    return ("entry", "edge", "vertex")[odd]


@dataclass(frozen=True)
class Rule:
    """One rule: start conditions (entries with a number 0-4, edges 1 line / 0 cross) and
    conclusions (edges), at relative positions (x, y); ``name`` as the file's ``% #N`` comment
    gives it, else ``#<ordinal>``."""

    name: str
    premises: tuple[Condition, ...]
    conclusions: tuple[Condition, ...]
    source: str = ""
    line: int = 0

    def transformed(self, sym: tuple[int, int, int, int]) -> "Rule":
        a, b, c, d = sym

        def move(items: tuple[Condition, ...]) -> tuple[Condition, ...]:
            return tuple(sorted(((a * x + b * y, c * x + d * y), v) for (x, y), v in items))
        return Rule(self.name, move(self.premises), move(self.conclusions), self.source, self.line)

    def shape(self) -> tuple:
        """The rule up to where its anchor entry sits (a translation by whole entries)."""
        items = [*self.premises, *self.conclusions]
        dx = min(x for (x, _), _ in items) // 2 * 2
        dy = min(y for (_, y), _ in items) // 2 * 2

        def shift(conds: tuple[Condition, ...]) -> tuple:
            return tuple(sorted(((x - dx, y - dy), v) for (x, y), v in conds))
        return shift(self.premises), shift(self.conclusions)

    def images(self) -> list["Rule"]:
        """The distinct rules among the 8 symmetric variants (1 to 8 of them)."""
        seen: dict[tuple, Rule] = {}
        for sym in SYMMETRIES:
            image = self.transformed(sym)
            seen.setdefault(image.shape(), image)
        return list(seen.values())


# -- the file format ----------------------------------------------------------------------------
_TOKEN = re.compile(r"[^\s|]+")
_NAME = re.compile(r"^%\s*(?:#|rule number)\s*([0-9]+)\b", re.I)
#: Rules are local: coordinates lie within this distance of the anchor (8 entries).
REACH = 16


def parse_rules(text: str, source: str = "<rules>") -> list[Rule]:
    """The rules of a rule file (format in encodings/slitherlink_rules.md): ``%`` comments,
    ``s a|b|c`` start conditions, ``e a|b|c`` conclusions (``|`` or blanks between the numbers),
    ``q`` closing each rule. A bad line is a :class:`ParseError` naming its line and column."""
    rules: list[Rule] = []
    premises: dict[Pos, int] = {}
    conclusions: dict[Pos, int] = {}
    name: str | None = None
    start = 0

    def error(line: int, message: str, col: int | None = None) -> ParseError:
        return ParseError(source, line, message, col)

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        lead = len(raw) - len(raw.lstrip()) + 1
        if line.startswith("%"):
            m = _NAME.match(line)
            if m and name is None and not premises and not conclusions:
                name = f"#{int(m.group(1))}"
            continue
        tokens = [(m.group(), lead + m.start()) for m in _TOKEN.finditer(line)]
        head, col = tokens[0]
        start = start or n
        if head == "q":
            if len(tokens) > 1:
                raise error(n, f"'q' ends a rule and takes nothing after it, found {tokens[1][0]!r}", tokens[1][1])
            if not premises:
                raise error(n, "this rule has no start condition ('s' line)", col)
            if not conclusions:
                raise error(n, "this rule has no conclusion ('e' line)", col)
            rules.append(Rule(name or f"#{len(rules) + 1}", tuple(sorted(premises.items())),
                              tuple(sorted(conclusions.items())), source, start))
            premises, conclusions, name, start = {}, {}, None, 0
            continue
        if head not in ("s", "e"):
            raise error(n, f"a rule line starts with 's', 'e', 'q' or '%', not {head!r}", col)
        if len(tokens) != 4:
            raise error(n, f"'{head} x|y|value' takes three numbers, found {len(tokens) - 1}", col)
        numbers = []
        for token, at in tokens[1:]:
            if not re.fullmatch(r"[+-]?[0-9]+", token):
                raise error(n, f"{token!r} is not a whole number", at)
            numbers.append(int(token))
        for number, (_, at) in zip(numbers[:2], tokens[1:3]):
            if abs(number) > REACH:
                raise error(n, f"coordinate {number} is out of reach: rules are local, coordinates "
                               f"-{REACH} to {REACH}", at)
        x, y, value = numbers
        pos, kind, vcol = (x, y), kind_of((x, y)), tokens[3][1]
        if kind == "vertex":
            raise error(n, f"({x}, {y}) is a vertex (both odd); rules name entries (both even) "
                           "and edges (one odd)", tokens[1][1])
        if head == "e" and kind == "entry":
            raise error(n, f"({x}, {y}) is an entry; a conclusion names an edge (one coordinate odd)",
                        tokens[1][1])
        if kind == "entry" and not 0 <= value <= 4:
            raise error(n, f"an entry holds a number 0-4, not {value}", vcol)
        if kind == "edge" and value not in (0, 1):
            raise error(n, f"an edge is 1 (a line) or 0 (a cross), not {value}", vcol)
        table, other = (premises, conclusions) if head == "s" else (conclusions, premises)
        if pos in table:
            raise error(n, f"({x}, {y}) is named twice in this rule's '{head}' lines", tokens[1][1])
        if pos in other:
            raise error(n, f"({x}, {y}) is both a start condition and a conclusion", tokens[1][1])
        table[pos] = value
    if premises or conclusions:
        raise ParseError(source, start, "this rule has no closing 'q' line")
    if not rules:
        raise ParseError(source, None, "no rules in the file (each rule is 's'/'e' lines closed by 'q')")
    return rules


def default_path() -> Path:
    """The shipped rule file."""
    return Path(str(resources.files(__package__).joinpath(DEFAULT_RULES)))


def load_rules(path: str | Path | None = None) -> list[Rule]:
    """The rules of ``path`` (default: the shipped ones)."""
    path = default_path() if path is None else path
    source, text = read_text(str(path), what="rule")
    return parse_rules(text, source)


# -- placing a rule on the dot lattice ------------------------------------------------------------
def place(pos: Pos, anchor: tuple[int, int]) -> tuple[str, int, int] | tuple[int, int]:
    """The lattice key of a relative position for the anchor entry (row, col): a cell
    ``(r, c)`` or an edge ``("h"|"v", i, j)``."""
    (x, y), (r, c) = pos, anchor
    R, C = 2 * r + 1 + y, 2 * c + 1 + x
    if R % 2 and C % 2:
        return ((R - 1) // 2, (C - 1) // 2)
    if R % 2 == 0:
        return ("h", R // 2, (C - 1) // 2)
    return ("v", (R - 1) // 2, C // 2)


def cell_box(rule: Rule) -> tuple[int, int, int, int]:
    """The rows and columns (r0, r1, c0, c1, inclusive) of the cells a rule's positions touch,
    relative to its anchor entry."""
    rows, cols = [], []
    for (x, y), _ in [*rule.premises, *rule.conclusions]:
        for d, out in ((y, rows), (x, cols)):
            out.extend([d // 2] if d % 2 == 0 else [(d - 1) // 2, (d + 1) // 2])
    return min(rows), max(rows), min(cols), max(cols)


# -- soundness -------------------------------------------------------------------------------------
Mode = Literal["strict", "big"]


class Window:
    """The edges of a ``rows`` x ``cols`` window as SAT variables, with the vertex rule (0 or 2
    lines inside, at most 2 on the rim) and the loop rule of a :data:`Mode` cut lazily."""

    def __init__(self, rows: int, cols: int):
        self.grid = geometry.Grid.of(rows, cols)
        self.var = {key: k + 1 for key, k in self.grid.edge_index.items()}
        self.solver = Solver(name="minisat22")
        for dot in self.grid.dots:
            at = [self.var[k] for k in self.grid.edges_at(dot)]
            inside = 0 < dot[0] < rows and 0 < dot[1] < cols
            if inside:  # not exactly one line
                self.solver.append_formula([[-e, *(o for o in at if o != e)] for e in at])
            self.solver.append_formula([[-a, -b, -c] for a, b, c in combinations(at, 3)])
        #: The activation literal each mode's cuts sit behind.
        self.act: dict[Mode, int] = {"big": len(self.var) + 1, "strict": len(self.var) + 2}

    def clue(self, cell: tuple[int, int], k: int) -> None:
        sides = [self.var[key] for key in self.grid.sides(cell)]
        for on in range(16):
            lits = [s if on >> b & 1 else -s for b, s in enumerate(sides)]
            if bin(on).count("1") != k:
                self.solver.add_clause([-x for x in lits])

    def completion(self, assumptions: list[int], mode: Mode) -> frozenset[EdgeKey] | None:
        """The lines of a completion under ``assumptions`` and the loop rule of ``mode``, or
        None. Each round that finds a forbidden closed loop adds its cut (kept: cuts depend on
        the rules only), behind the mode's activation literal."""
        act = self.act[mode]
        while self.solver.solve(assumptions=[*assumptions, act]):
            model = self.solver.get_model()
            on = frozenset(k for k, v in self.var.items() if model[v - 1] > 0)
            cuts = self._cuts(on, mode)
            if not cuts:
                return on
            for cut in cuts:
                self.solver.add_clause([-act, *cut])
        return None

    def _cuts(self, on: frozenset[EdgeKey], mode: Mode) -> list[list[int]]:
        cuts = []
        for loop in closed_loops(on):
            if mode == "big":
                cuts.append([-self.var[k] for k in loop])
            elif len(loop) < len(on):  # the whole loop forbids every other line
                cuts += [[*(-self.var[k] for k in loop), -self.var[e]] for e in on - loop]
        return cuts


def closed_loops(on: Iterable[EdgeKey]) -> list[frozenset[EdgeKey]]:
    """The connected sets of lines in which every vertex has exactly two lines."""
    at: dict[tuple[int, int], list[EdgeKey]] = {}
    for key in on:
        for dot in geometry.Grid.edge_ends(key):
            at.setdefault(dot, []).append(key)
    seen: set[EdgeKey] = set()
    loops = []
    for first in at.values():
        if first[0] in seen:
            continue
        part, stack = set(), [first[0]]
        while stack:
            key = stack.pop()
            if key not in part:
                part.add(key)
                stack.extend(k for dot in geometry.Grid.edge_ends(key) for k in at[dot])
        seen |= part
        if all(len(at[d]) == 2 for key in part for d in geometry.Grid.edge_ends(key)):
            loops.append(frozenset(part))
    return loops


@dataclass(frozen=True)
class Counterexample:
    """A big-loop completion of a rule's window that breaks the conclusion at ``broken``."""

    rows: int
    cols: int
    anchor: tuple[int, int]
    clues: dict
    lines: frozenset[EdgeKey]
    broken: Condition

    def drawing(self) -> str:
        """The window as ``solve`` draws a loop: ``+`` dots, ``-``/``|`` lines, the start
        conditions' numbers in their entries (``.`` elsewhere); the broken conclusion's edge is
        ``#`` when it is a line the rule says is crossed, ``x`` when it is crossed and the rule
        says a line."""
        broken = place(self.broken[0], self.anchor)
        out = []
        for i in range(self.rows + 1):
            row = "+"
            for j in range(self.cols):
                row += self._mark(("h", i, j), "-", broken) + "+"
            out.append(row)
            if i < self.rows:
                row = ""
                for j in range(self.cols + 1):
                    row += self._mark(("v", i, j), "|", broken)
                    if j < self.cols:
                        k = self.clues.get((i, j))
                        row += "." if k is None else str(k)
                out.append(row)
        return "\n".join(out)

    def svg(self, title: str) -> str:
        """Two panels: the completion, and the same lines with the rule's conclusion applied
        (the broken edge marked as a difference)."""
        from . import SlitherlinkPuzzle  # the genre's record imports this module
        from ...render_svg import svg

        givens = tuple(tuple(self.clues.get((r, c)) for c in range(self.cols)) for r in range(self.rows))
        key = place(self.broken[0], self.anchor)
        claimed = self.lines | {key} if self.broken[1] else self.lines - {key}
        return svg(SlitherlinkPuzzle(givens, title), self._grids(self.lines), self._grids(claimed),
                   captions=("a local completion", "what the rule concludes"), title=title)

    def _grids(self, lines: frozenset[EdgeKey]) -> tuple:
        h = tuple(tuple(int(("h", i, j) in lines) for j in range(self.cols)) for i in range(self.rows + 1))
        v = tuple(tuple(int(("v", i, j) in lines) for j in range(self.cols + 1)) for i in range(self.rows))
        return h, v

    def _mark(self, key: EdgeKey, line: str, broken) -> str:
        if key == broken:
            return "#" if key in self.lines else "x"
        return line if key in self.lines else " "


@dataclass(frozen=True)
class Verdict:
    """The proof of one rule: ``status`` is ``proved``, ``big-loop`` (proved for a loop that
    leaves the window), ``refuted`` or ``vacuous`` (no completion meets the start conditions);
    ``images`` the number of distinct symmetric variants proved."""

    rule: Rule
    status: str
    images: int
    counterexample: Counterexample | None = None
    window: tuple[int, int] = (0, 0)

    @property
    def sound(self) -> bool:
        return self.status != "refuted"

    def to_json(self) -> dict:
        out = {"rule": self.rule.name, "line": self.rule.line, "status": self.status,
               "images": self.images, "window": list(self.window)}
        if self.counterexample is not None:
            c = self.counterexample
            out["counterexample"] = {"broken": {"at": list(c.broken[0]), "value": c.broken[1]},
                                     "drawing": c.drawing().split("\n")}
        return out


STATUS_WORDS = {"proved": "proved", "big-loop": "proved (for a loop that leaves the window)",
                "refuted": "REFUTED", "vacuous": "proved (vacuous: the start conditions never hold)"}


def prove_rule(rule: Rule, margin: int = 1) -> Verdict:
    """Prove ``rule`` in each of its distinct symmetric variants (module docstring); the worst
    variant's verdict stands (they agree unless the symmetries are wrong)."""
    images = rule.images()
    verdicts = [_prove_image(image, margin) for image in images]
    order = ["refuted", "vacuous", "big-loop", "proved"]
    worst = min(verdicts, key=lambda v: order.index(v.status))
    return Verdict(rule, worst.status, len(images), worst.counterexample, worst.window)


def _prove_image(rule: Rule, margin: int) -> Verdict:
    r0, r1, c0, c1 = cell_box(rule)
    rows, cols = r1 - r0 + 1 + 2 * margin, c1 - c0 + 1 + 2 * margin
    anchor = (margin - r0, margin - c0)
    window = Window(rows, cols)
    try:
        return _verdict(rule, window, anchor)
    finally:
        window.solver.delete()


def _verdict(rule: Rule, window: Window, anchor: tuple[int, int]) -> Verdict:
    size = (window.grid.rows, window.grid.cols)
    assumptions, clues = [], {}
    for pos, value in rule.premises:
        key = place(pos, anchor)
        if kind_of(pos) == "entry":
            window.clue(key, value)
            clues[key] = value
        else:
            assumptions.append(window.var[key] if value else -window.var[key])
    if window.completion(assumptions, "big") is None:
        return Verdict(rule, "vacuous", 1, window=size)
    status = "proved"
    for pos, value in rule.conclusions:
        var = window.var[place(pos, anchor)]
        broken = [*assumptions, -var if value else var]
        lines = window.completion(broken, "big")
        if lines is not None:
            example = Counterexample(*size, anchor, clues, lines, (pos, value))
            return Verdict(rule, "refuted", 1, example, size)
        if status == "proved" and window.completion(broken, "strict") is not None:
            status = "big-loop"
    return Verdict(rule, status, 1, window=size)


@dataclass(frozen=True)
class Proof:
    """The verdicts of a rule file."""

    source: str
    verdicts: list[Verdict] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(v.status in statuses for v in self.verdicts)

    @property
    def refuted(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.sound]

    def summary(self) -> str:
        n = len(self.verdicts)
        proved = n - len(self.refuted)
        big, vacuous = self.count("big-loop"), self.count("vacuous")
        notes = [f"{big} of them only for a loop that leaves the window"] if big else []
        notes += [f"{vacuous} vacuous"] if vacuous else []
        more = f" ({'; '.join(notes)})" if notes else ""
        return f"{n} rules: {proved} proved{more}, {len(self.refuted)} refuted"

    def text(self) -> str:
        out = []
        for v in self.verdicts:
            out.append(f"rule {v.rule.name} (line {v.rule.line}, {v.images} variants): {STATUS_WORDS[v.status]}")
            c = v.counterexample
            if c is not None:
                (x, y), value = c.broken
                want = "a line" if value else "a cross"
                out.append(f"  counterexample ({c.rows}x{c.cols} window; the conclusion at ({x}, {y}) "
                           f"says {want}, marked {'x' if value else '#'}):")
                out += ["    " + row for row in c.drawing().split("\n")]
        out.append(self.summary())
        return "\n".join(out)

    def to_json(self) -> dict:
        return {"source": self.source, "rules": len(self.verdicts),
                "proved": len(self.verdicts) - len(self.refuted), "refuted": len(self.refuted),
                "big_loop_only": self.count("big-loop"), "vacuous": self.count("vacuous"),
                "verdicts": [v.to_json() for v in self.verdicts]}


def prove(rules: list[Rule], source: str = "", margin: int = 1) -> Proof:
    """Every rule's :class:`Verdict`."""
    return Proof(source, [prove_rule(rule, margin) for rule in rules])


@dataclass(frozen=True)
class RuleBook:
    """A genre's ``RULES`` record part: its default rule file, the reader, the prover and the
    rule-based grade (:mod:`.rule_solver`)."""

    default: Callable[[], Path]
    load: Callable[..., list[Rule]]
    prove: Callable[..., Proof]
    grade: Callable[..., Any]
    #: (verdict) -> an SVG drawing of a refuted rule's counterexample.
    svg: Callable[[Verdict], str]


def counterexample_svg(verdict: Verdict) -> str:
    assert verdict.counterexample is not None
    return verdict.counterexample.svg(f"rule {verdict.rule.name}: counterexample")
