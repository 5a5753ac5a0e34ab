"""satgrid's own JSON results read back as puzzles: one JSON object a line, as ``solve``,
``audit`` and ``generate`` print them with ``--format json`` (a single pretty-printed object
reads too), so a batch can be solved or audited again.

Keys read: ``genre`` and ``puzzle`` (required; ``puzzle`` as the genre's ``puzzle_json`` writes
it), ``id`` (the puzzle's name), ``solution`` (the genre's ``solution_json``; null or absent for
none), kept as the puzzle's given solution. Every other key whose value is a string or a number
is handed to the genre as a header key, as ``key: value`` lines of the text format are: ``rows``
and ``cols`` (checked against the grid) and the genre's ``puzzle_meta`` keys are read, the rest
(status, solver, ...) are facts about an earlier run that the genres leave alone. Keys with other
values (stats, lists of clues) are ignored.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError
from ..reader import GenreNames, Record
from .ipuz import loads
from .pzprv3 import Loaded

#: Keys that make a JSON object a satgrid result rather than an ipuz document.
REQUIRED = ("genre", "puzzle")
#: Keys read here rather than handed to the genre as header keys.
_NOT_META = ("genre", "puzzle", "id", "solution")


def documents(text: str, source: str) -> list[tuple[int, Any]] | None:
    """``(line, object)`` for each result object in ``text``, or None when ``text`` is not
    satgrid results (so another JSON reader, ipuz, takes it)."""
    body = text.lstrip("\ufeff")
    try:
        whole = loads(body, source)
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            return None if not _first_is_result(body, source) else _lines(body, source)
        return _lines(body, source)
    lead = body[: len(body) - len(body.lstrip())].count("\n") + 1
    return [(lead, whole)] if _is_result(whole) else None


def _is_result(doc: Any) -> bool:
    return isinstance(doc, dict) and all(k in doc for k in REQUIRED) and "kind" not in doc


def _first_is_result(body: str, source: str) -> bool:
    first = next((t for t in body.splitlines() if t.strip()), "")
    try:
        return _is_result(loads(first, source))
    except json.JSONDecodeError:
        return False


def _lines(body: str, source: str) -> list[tuple[int, Any]] | None:
    out = []
    for n, raw in enumerate(body.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            doc = loads(raw, source, n)
        except json.JSONDecodeError as exc:
            if not out:
                return None
            raise ParseError(source, n, f"not a JSON result line: {exc.msg}", exc.colno) from None
        if not _is_result(doc):
            if not out:
                return None
            raise ParseError(source, n, "a JSON line without 'genre' and 'puzzle': a file of results "
                                        "holds one result object a line", 1)
        out.append((n, doc))
    return out or None


def read(text: str, source: str, genre: str | None, genre_from: str = "--genre") -> list[Loaded] | None:
    """The puzzles (and given solutions) of a file of result objects, or None when ``text`` is not
    one. ``genre`` (what ``genre_from`` asks for) must agree with each object's genre."""
    from ..registry import ALIASES, GENRES

    docs = documents(text, source)
    if docs is None:
        return None
    names = GenreNames(source, tuple(GENRES), ALIASES, genre, genre_from)
    return [_one(doc, n, source, names) for n, doc in docs]


def _one(doc: dict[str, Any], line: int, source: str, names: GenreNames) -> Loaded:
    if not isinstance(doc["genre"], str):
        raise ParseError(source, line, f"'genre' is {doc['genre']!r}, not a genre name")
    from ..registry import GENRES

    g = GENRES[names.declared(doc["genre"], line)]
    name = doc.get("id", "")
    if not isinstance(name, str):
        raise ParseError(source, line, f"'id' is {name!r}, not a string")
    meta = {key: str(value) for key, value in doc.items()
            if key not in _NOT_META and isinstance(value, (str, int)) and not isinstance(value, bool)}
    record = Record(source, line, name, g.name, meta)
    try:
        puzzle = g.puzzle_from_json(record, doc["puzzle"])
    except ParseError as exc:
        raise ParseError(source, line, f"in 'puzzle': {exc.message}") from None
    solution = doc.get("solution")
    if solution is not None:
        try:
            solution = g.solution_from_json(puzzle, solution)
        except ValueError as exc:
            raise ParseError(source, line, f"'solution' is not a solution of this puzzle: {exc}") from None
    return Loaded(puzzle, solution)
