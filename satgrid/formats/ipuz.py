"""ipuz Sudoku JSON (ipuz v2, PuzzleKind ``http://ipuz.org/sudoku#1``).

Fields read: ``puzzle`` (rows of SudokuGiven: a number, a charset symbol, ``{"given": value}``;
``0``, ``null``, ``""`` or the ``empty`` value for a blank), ``solution`` (rows of values),
``charset`` (default ``123456789``), ``boxes`` (standard boxes, the default; ``false`` is a Latin
square, which satgrid does not solve), ``title`` (characters that cannot be printed, such as a line
break or a lone surrogate, become U+FFFD). ``zones`` (irregular regions) and ``cages``
(killer) are variants satgrid does not solve yet. ipuz has no box-shape field: boxes are the
standard ones for the size (6x6: 2 tall x 3 wide).

Errors name the JSON line and column (of the document, or of the ``puzzle`` field).
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError, UnsupportedGenre
from ..genres.sudoku import DEFAULT_BOX, WIDE_SYMBOLS as WIDE, SudokuPuzzle, charset_problem
from ..puzzle import Source, printable
from ..reader import number
from .puzzlink import duplicate_givens

KIND = "http://ipuz.org/sudoku#1"
VERSION = "http://ipuz.org/v2"
DIGITS = "123456789"


def is_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def loads(text: str, source: str, line: int = 1) -> Any:
    """``json.loads``, but JSON nested deeper than Python's recursion limit (where ``json`` raises
    RecursionError) is a ParseError; invalid JSON still raises ``json.JSONDecodeError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ParseError(source, line, "JSON nested too deeply to be a puzzle", 1) from None


def _where(text: str, key: str) -> tuple[int, int]:
    """(line, column) of ``"key"`` in the document, or its start."""
    at = text.find(f'"{key}"')
    at = max(at, 0)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def read(text: str, source: str = "<ipuz>", genre: str | None = None) -> tuple[SudokuPuzzle, Any]:
    """The Sudoku in an ipuz document and its solution (None when it has none)."""
    try:
        doc = loads(text, source)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not valid JSON: {exc.msg}", exc.colno) from None

    def fail(message: str, key: str = "puzzle") -> ParseError:
        return ParseError(source, *_where(text, key)[:1], message, _where(text, key)[1])

    if not isinstance(doc, dict):
        raise ParseError(source, 1, "a JSON document that is not an ipuz object", 1)
    kinds = doc.get("kind")
    if not isinstance(kinds, list) or not any(isinstance(k, str) and k.startswith("http://ipuz.org/sudoku")
                                              for k in kinds):
        raise fail(f"not an ipuz Sudoku (kind {kinds!r}); satgrid reads ipuz Sudoku only", "kind")
    if genre is not None and genre != "sudoku":
        raise fail(f"an ipuz Sudoku, but the genre asked for is {genre}", "kind")
    for key, name in (("zones", "irregular regions (zones)"), ("cages", "killer cages")):
        if doc.get(key):
            raise UnsupportedGenre(f"{source}: ipuz Sudoku with {name} is not supported yet")
    if doc.get("boxes") is False:
        raise UnsupportedGenre(f"{source}: an ipuz Sudoku without boxes (a Latin square) is not supported yet")
    rows = doc.get("puzzle")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise fail("'puzzle' must be a list of rows")
    n = len(rows)
    if n not in DEFAULT_BOX:
        raise fail(f"a {n}x{n} grid has no standard box shape")
    charset = doc.get("charset", DIGITS[:n] if n <= 9 else None)
    if charset is None:
        raise fail(f"a {n}x{n} ipuz Sudoku needs its 'charset'", "puzzle")
    if not isinstance(charset, str):
        raise fail(f"charset {charset!r} must be a string of {n} different symbols", "charset")
    if (problem := charset_problem(charset, n)) is not None:
        raise fail(problem, "charset")
    empty = doc.get("empty", 0)

    def value(cell: Any, r: int, c: int, where: str, blank_ok: bool) -> int | None:
        if isinstance(cell, dict):
            cell = cell.get("given", cell.get("value"))
        if cell is None or cell == "" or cell == empty or cell == 0 or (cell == "0" and "0" not in charset):
            if blank_ok:
                return None
            raise fail(f"{where} row {r + 1} column {c + 1} is empty", where)
        if isinstance(cell, int) and not isinstance(cell, bool) and 1 <= cell <= n:
            return cell  # a number is the value itself
        if isinstance(cell, str) and len(cell) == 1 and cell in charset:
            return charset.index(cell) + 1
        if isinstance(cell, str) and 1 <= (number(cell) or 0) <= n:
            return number(cell)
        raise fail(f"{where} row {r + 1} column {c + 1}: {cell!r} is not a value 1..{n} or a symbol "
                   f"of the charset {charset!r}", where)

    givens = []
    for r, row in enumerate(rows):
        if len(row) != n:
            raise fail(f"puzzle row {r + 1} has {len(row)} cells, expected {n}")
        givens.append([(value(cell, r, c, "puzzle", True), 0) for c, cell in enumerate(row)])
    h, w = DEFAULT_BOX[n]
    symbols = None if charset == DIGITS[:n] else charset
    title = doc.get("title") if isinstance(doc.get("title"), str) else ""
    name = printable(title)
    puzzle = SudokuPuzzle(tuple(tuple(v for v, _ in row) for row in givens), h, w, name, Source(source, 1), symbols)
    duplicate_givens(puzzle, givens, lambda _, message: fail(message))
    solution = doc.get("solution")
    if solution is None:
        return puzzle, None
    if not isinstance(solution, list) or len(solution) != n or not all(isinstance(r, list) and len(r) == n
                                                                      for r in solution):
        raise fail(f"'solution' must be {n} rows of {n} values", "solution")
    return puzzle, tuple(tuple(value(cell, r, c, "solution", False) for c, cell in enumerate(row))
                         for r, row in enumerate(solution))


def write(puzzle: Any, solution: Any = None) -> str:
    """The ipuz document of a Sudoku (with its solution when given)."""
    if puzzle.genre != "sudoku":
        raise UnsupportedGenre(f"ipuz has no {puzzle.genre} kind (it covers Sudoku only)")
    n = puzzle.size
    if DEFAULT_BOX.get(n) != (puzzle.box_height, puzzle.box_width):
        raise UnsupportedGenre(f"ipuz has no box-shape field: a {n}x{n} Sudoku with {puzzle.box_height}x"
                               f"{puzzle.box_width} boxes cannot be written")
    charset = puzzle.symbols or (DIGITS[:n] if n <= 9 else WIDE[:n])

    def cell(v: int | None) -> int | str:
        if v is None:
            return 0
        return v if n <= 9 and puzzle.symbols is None else charset[v - 1]

    head: dict[str, Any] = {"version": VERSION, "kind": [KIND]}
    if puzzle.name:
        head["title"] = puzzle.name
    head.update({"charset": charset, "displaycharset": True, "boxes": True})
    grids = {"puzzle": puzzle.givens}
    if solution is not None:
        grids["solution"] = solution
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    for key, grid in grids.items():
        rows = ",\n".join(f"    {json.dumps([cell(v) for v in row])}" for row in grid)
        lines.append(f'  "{key}": [\n{rows}\n  ],')
    lines[-1] = lines[-1][:-1]
    return "{\n" + "\n".join(lines) + "\n}\n"
