"""DIMACS export: the puzzle as CNF, with a variable map, written atomically.

With ``connectivity="eager"`` (the default) global rules are encoded completely, so the file alone
has exactly the puzzle's solutions projected on the primary variables. With ``"lazy"`` only the
base CNF is written and the header says that connectivity/loop rules are missing. Clues are hard
clauses (``clues="plain"``), sit behind selector variables listed in the header
(``"selectors"``: assume a selector to switch its clue on), or are left out (``"none"``).
Same input and options -> byte-identical output.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from . import __version__
from .cnf import Clause
from .errors import SatgridError
from .registry import GENRES

ClueMode = Literal["plain", "selectors", "none"]


@dataclass(frozen=True)
class Export:
    """A finished export: DIMACS text and the JSON variable map."""

    text: str
    varmap: dict[str, Any]


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
    top = max([enc.pool.top, *(abs(lit) for c in clauses for lit in c)])
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
        header.append("clue selectors: assume a selector to switch its clue on; leave it out to "
                      "drop the clue (e.g. uniqueness without one clue = all other selectors)")
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
    return Export("\n".join(lines) + "\n", varmap)


def _plain(obj: Any) -> Any:
    """Keys and values as JSON data (tuples become lists, '?' stays a string)."""
    if isinstance(obj, tuple):
        return [_plain(x) for x in obj]
    return obj


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: never a half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write(export: Export, path: Path) -> Path:
    """Write the DIMACS file and its ``.map.json`` sidecar; returns the sidecar path."""
    sidecar = path.with_name(path.name.removesuffix(".cnf") + ".map.json")
    try:
        write_atomic(path, export.text)
        write_atomic(sidecar, json.dumps(export.varmap, indent=1, sort_keys=True) + "\n")
    except OSError as exc:
        raise SatgridError(f"{path}: cannot write: {exc.strerror}") from None
    return sidecar
