"""DIMACS export: the puzzle as CNF, with a variable map, written atomically.

With ``connectivity="eager"`` (the default) global rules are encoded completely, so the file alone
has exactly the puzzle's solutions projected on the primary variables. With ``"lazy"`` only the
base CNF is written and the header says that connectivity/loop rules are missing. Clues are hard
clauses (``clues="plain"``), sit behind selector variables listed in the header
(``"selectors"``: assume a selector to switch its clue on), or are left out (``"none"``).
Same input and options -> byte-identical output.

Clue selectors, for tools outside satgrid: the header lists ``c satgrid selector <id> [key,
value]``. Solving the puzzle = the CNF plus a unit clause ``<id> 0`` for every selector (or the
selectors as assumptions). Clue ``k`` is redundant iff the CNF + the units of every other selector
+ one clause blocking the known solution (the negation of its true primary variables) is UNSAT;
a set of clues is a unique-making subset iff the same holds with only its units.

Reading a model back (``satgrid decode``): :func:`read_model` takes SAT-competition output (``s``
and ``v`` lines), minisat's result file (``SAT`` then literals) or a bare literal list;
:func:`decode_model` rebuilds the export with the same options (variable ids are deterministic),
checks that the model satisfies every exported clause, reads the solution, and reports the global
rules it breaks (possible only for lazy exports) and the rule checker's verdict.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from . import __version__
from .cnf import Clause
from .encoding import Encoding
from .errors import ParseError, SatgridError
from .files import write_atomic
from .registry import GENRES
from .solver import Assignment

ClueMode = Literal["plain", "selectors", "none"]


@dataclass(frozen=True)
class Export:
    """A finished export: DIMACS text and the JSON variable map."""

    text: str
    varmap: dict[str, Any]
    encoding: Encoding = field(compare=False, repr=False)
    clauses: list[Clause] = field(compare=False, repr=False)


def build(puzzle: Any, connectivity: str = "eager", clues: ClueMode = "plain") -> Export:
    g = GENRES[puzzle.genre]
    enc = g.encode(puzzle)
    clauses: list[Clause] = list(enc.clauses)
    for rule in enc.rules:
        clauses += rule.clauses(enc.pool)
        if connectivity == "eager":
            clauses += rule.eager_clauses(enc.pool)
    selectors: dict[int, list] = {}
    if clues != "none":
        for key, value in puzzle.clues().items():
            clue = enc.encode_clue(key, value)
            if clues == "plain":
                clauses += clue.plain()
            else:
                clauses += [[*c, -clue.selector] for c in clue.clauses]
                selectors[clue.selector] = [_plain(key), _plain(value)]
    # The exact variable count: the largest variable used (minisat warns about a larger header
    # count; auxiliaries the pool made for clues written here without selectors are not used).
    top = max([0, *(abs(lit) for c in clauses for lit in c), *enc.primary.values(), *selectors])
    primary = {str(v): _plain(k) for k, v in sorted(enc.primary.items(), key=lambda kv: kv[1])}
    name = puzzle.name or str(puzzle.source)
    header = [
        f"satgrid {__version__} DIMACS export",
        f"genre {g.name}",
        f"puzzle {name}",
        f"size {puzzle.rows}x{puzzle.cols}",
        f"connectivity {connectivity}" if enc.rules else "connectivity none-needed",
        f"clues {clues}",
        f"variables {top} clauses {len(clauses)} primary {len(primary)} selectors {len(selectors)}",
    ]
    if enc.rules and connectivity == "lazy":
        header.append("WARNING: connectivity/loop rules are NOT in this CNF (lazy mode); its models "
                      "may break them: check with 'satgrid decode'")
    if selectors:
        header += [
            "clue selectors: a selector switches its clue on; the puzzle = this CNF plus a unit "
            "clause '<selector> 0' for every selector below (or pass them as assumptions)",
            "clue k is redundant iff this CNF + the units of every other selector + a clause "
            "blocking the known solution (the negations of its true 'var' variables) is UNSAT",
        ]
    lines = [f"c {h}" for h in header]
    lines += [f"c satgrid var {v} {json.dumps(k)}" for v, k in primary.items()]
    lines += [f"c satgrid selector {v} {json.dumps(k)}" for v, k in selectors.items()]
    lines.append(f"p cnf {top} {len(clauses)}")
    lines += [" ".join(map(str, c)) + " 0" for c in clauses]
    varmap = {
        "satgrid": __version__, "genre": g.name, "puzzle": name, "rows": puzzle.rows,
        "cols": puzzle.cols, "connectivity": connectivity if enc.rules else "none-needed",
        "clues": clues, "variables": top, "clauses": len(clauses), "primary": primary,
        "selectors": {str(v): k for v, k in selectors.items()},
    }
    return Export("\n".join(lines) + "\n", varmap, enc, clauses)


def _plain(obj: Any) -> Any:
    """Keys and values as JSON data (tuples become lists, '?' stays a string)."""
    if isinstance(obj, tuple):
        return [_plain(x) for x in obj]
    return obj


def write(export: Export, path: Path) -> Path:
    """Write the DIMACS file and its ``.map.json`` sidecar (each atomically, mode 0666 less the
    umask: :func:`satgrid.files.write_atomic`); returns the sidecar path."""
    sidecar = path.with_name(path.name.removesuffix(".cnf") + ".map.json")
    try:
        write_atomic(path, export.text)
        write_atomic(sidecar, json.dumps(export.varmap, indent=1, sort_keys=True) + "\n")
    except OSError as exc:
        raise SatgridError(f"{path}: cannot write: {exc.strerror}") from None
    return sidecar


# -- reading models back ------------------------------------------------------------------------
@dataclass(frozen=True)
class Model:
    """A solver's answer read from a file: "sat" (with literals), "unsat" or "unknown"."""

    status: Literal["sat", "unsat", "unknown"]
    literals: tuple[int, ...] = ()


_COMPETITION = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat", "UNKNOWN": "unknown",
                "INDETERMINATE": "unknown"}
_MINISAT = {"SAT": "sat", "UNSAT": "unsat", "INDET": "unknown"}


def read_model(text: str, source: str = "<model>") -> Model:
    """A model file: SAT-competition output (``s``/``v`` lines; other lines are ignored),
    minisat's result file (``SAT`` then literals ending in 0, or ``UNSAT``/``INDET``), or just
    literals. Garbage is a :class:`ParseError` naming the line."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise ParseError(source, None, "empty model file")
    if any(line == "s" or line.startswith("s ") for _, line in lines):
        status = None
        literals: list[int] = []
        for n, line in lines:
            if line == "s" or line.startswith("s "):
                word = line[1:].strip()
                if word not in _COMPETITION:
                    raise ParseError(source, n, f"unknown result line {line!r}")
                if status is not None and _COMPETITION[word] != status:
                    raise ParseError(source, n, "a second, different result line")
                status = _COMPETITION[word]
            elif line == "v" or line.startswith("v "):
                literals += _literals(source, n, line[1:])
        return _model(source, status, literals, "'v' lines")
    first_line, first = lines[0]
    if first in _MINISAT:
        literals = [lit for n, line in lines[1:] for lit in _literals(source, n, line)]
        return _model(source, _MINISAT[first], literals, "literals after SAT")
    literals = [lit for n, line in lines for lit in _literals(source, n, line, first_line)]
    return _model(source, "sat", literals, "literals")


def _literals(source: str, number: int, text: str, first: int | None = None) -> list[int]:
    try:
        return [int(tok) for tok in text.split()]
    except ValueError:
        hint = ("expected SAT-competition output ('s SATISFIABLE' and 'v' lines), minisat's result "
                "file, or literals" if number == first else "garbage in an assignment")
        raise ParseError(source, number, f"{hint}: {text.strip()[:40]!r}") from None


def _model(source: str, status: str | None, literals: list[int], where: str) -> Model:
    if status is None:
        raise ParseError(source, None, "no result line ('s SATISFIABLE' ...)")
    if status != "sat":
        if literals:
            raise ParseError(source, None, f"{status.upper()} answer followed by literals")
        return Model(status)  # type: ignore[arg-type]
    if not literals:
        raise ParseError(source, None, f"a SAT answer without an assignment (no {where}): the "
                                       "solver was asked not to print its model?")
    if literals[-1] != 0 and 0 not in literals:
        raise ParseError(source, None, f"the assignment ({where}) does not end in 0: the file is "
                                       "cut short?")
    if literals[-1] != 0 or 0 in literals[:-1]:
        raise ParseError(source, None, f"the assignment ({where}) must be one list ending in 0")
    seen: dict[int, int] = {}
    for lit in literals[:-1]:
        if seen.setdefault(abs(lit), lit) != lit:
            raise ParseError(source, None, f"the assignment sets variable {abs(lit)} both ways")
    return Model("sat", tuple(literals[:-1]))


@dataclass
class Decoded:
    """What a model says about a puzzle. ``solution`` is a solution only when ``problems`` is
    empty; ``broken_rules`` names the global rules (loop, connectivity) the model breaks, which
    only a lazy export allows."""

    export: Export
    solution: Any
    problems: list[str]
    broken_rules: list[str]
    #: The clue selectors (``[key, value]`` as the header lists them) the model sets false: their
    #: clues are off in it (an export with clue selectors leaves their unit clauses out).
    selectors_off: list[Any] = field(default_factory=list)


def decode_model(puzzle: Any, literals: tuple[int, ...], connectivity: str = "eager",
                 clues: ClueMode = "plain", varmap: dict[str, Any] | None = None,
                 source: str = "<model>") -> Decoded:
    """Map ``literals`` (a model of ``build(puzzle, connectivity, clues)``) onto ``puzzle``.

    With ``varmap`` (a ``.map.json`` sidecar) the export is rebuilt with the map's options and
    must match it. A model that leaves a primary variable out, or falsifies an exported clause, is
    an error: it is not a model of this export.
    """
    if varmap is not None:
        connectivity = varmap.get("connectivity", connectivity)
        if connectivity == "none-needed":
            connectivity = "eager"
        clues = varmap.get("clues", clues)
    if connectivity not in ("eager", "lazy") or clues not in ("plain", "selectors", "none"):
        raise SatgridError(f"bad export options: connectivity {connectivity!r}, clues {clues!r}")
    export = build(puzzle, connectivity, clues)
    if varmap is not None:
        for key in ("genre", "rows", "cols", "variables", "clauses", "primary", "selectors"):
            if varmap.get(key) != export.varmap[key]:
                raise SatgridError(
                    f"the variable map does not match a fresh export of puzzle "
                    f"{export.varmap['puzzle']} ({key} differs): was it made from another puzzle, "
                    "other options or another satgrid version?")
    value = {abs(lit): lit > 0 for lit in literals}
    primary = export.varmap["primary"]
    missing = [int(v) for v in primary if int(v) not in value]
    if missing:
        raise SatgridError(f"{source}: the model gives no value to {len(missing)} of the "
                           f"{len(primary)} primary variables (e.g. {missing[0]} = "
                           f"{primary[str(missing[0])]}): it cannot be decoded")
    top = max([export.varmap["variables"], *value])
    assignment = Assignment([v if value.get(v, False) else -v for v in range(1, top + 1)])
    for index, clause in enumerate(export.clauses):
        if not any(assignment(lit) for lit in clause):
            raise SatgridError(
                f"{source}: the model falsifies clause {index + 1} ({' '.join(map(str, clause))} 0) "
                f"of the {connectivity} export with clues {clues}: it is not a model of this "
                "export (other options? pass --map FILE.map.json)")
    enc = export.encoding
    broken = [rule.name for rule in enc.rules if rule.cuts(assignment, enc.pool)]
    g = GENRES[puzzle.genre]
    solution = g.decode(puzzle, enc, assignment)
    problems = list(g.check(puzzle, solution))
    if broken and not problems:  # the checker must agree; never print such a model as a solution
        problems = [f"breaks the {name} rule" for name in broken]
    off = [key for v, key in export.varmap["selectors"].items() if not value.get(int(v), False)]
    return Decoded(export, solution, problems, broken, off)
