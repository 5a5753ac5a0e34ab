"""Shared pieces of every genre's puzzle type."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Source:
    """Where a puzzle was read from (file and 1-based line)."""

    file: str = "<memory>"
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


def cell_name(r: int, c: int) -> str:
    """Row/column name as puzzle books print it, 1-based: ``r4c7``."""
    return f"r{r + 1}c{c + 1}"


def is_edge(key: tuple) -> bool:
    """Whether a part key (what ``differences`` lists) is a loop edge ``("h"|"v", i, j)``, not a cell."""
    return len(key) == 3 and key[0] in ("h", "v")


def part_name(key: tuple, rows: int, cols: int) -> str:
    """A cell ``(r, c)`` as :func:`cell_name`; an edge ``("h", i, j)`` (dot row ``i``, between dot
    columns ``j`` and ``j + 1``) or ``("v", i, j)`` (cell row ``i``, dot column ``j``) as the cell
    side it is: ``r1c2 top``, ``r5c5 bottom``, ``r3c1 left``, ``r3c5 right``."""
    if is_edge(key):
        kind, i, j = key
        if kind == "h":
            return f"{cell_name(i, j)} top" if i < rows else f"{cell_name(i - 1, j)} bottom"
        return f"{cell_name(i, j)} left" if j < cols else f"{cell_name(i, j - 1)} right"
    return cell_name(*key[-2:])


@dataclass(frozen=True)
class GivenSolution:
    """A solution written in the input (a block's ``solution:`` section): ``solution`` when it
    reads and passes the genre's rule checker, else None and ``error`` says why (with the file
    and line)."""

    solution: Any = None
    error: str = ""


def printable(text: str) -> str:
    """``text`` with every character that cannot be printed (control characters, line breaks,
    lone surrogates) as U+FFFD: a name from the input, safe in one line of output and in XML."""
    return "".join(ch if ch.isprintable() else "\ufffd" for ch in text)


@dataclass(frozen=True)
class GridPuzzle:
    """The shape most genres' puzzles share: a grid of clue values, row by row (None: no clue),
    the puzzle's name and where it was read. A genre subclasses it, names itself in the class
    variable ``genre`` and overrides :meth:`clues` / :meth:`with_clues` when not every value is a
    clue the queries switch on and off."""

    grid: tuple[tuple[Any, ...], ...]
    name: str = ""
    source: Source = Source()
    #: The solution written in the input, if any (set by ``api.load``; not part of equality).
    given_solution: GivenSolution | None = field(default=None, compare=False, repr=False)

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    @property
    def givens(self) -> tuple[tuple[Any, ...], ...]:
        """The grid (the name genres with givens use)."""
        return self.grid

    def numbers(self) -> dict[tuple[int, int], Any]:
        """Every cell holding a value, in reading order (a new dict: callers may change it)."""
        return dict(self._numbers)

    @cached_property
    def _numbers(self) -> dict[tuple[int, int], Any]:
        # read off the grid once per puzzle (a live re-check asks for the clues several times)
        return {(r, c): v for r, row in enumerate(self.grid) for c, v in enumerate(row) if v is not None}

    def clues(self) -> dict[tuple[int, int], Any]:
        """The clues that queries switch on and off: every value."""
        return self.numbers()

    def with_clues(self, clues: dict[tuple[int, int], Any]) -> "GridPuzzle":
        """This puzzle keeping the values in ``clues``; every other cell loses its value."""
        grid = tuple(tuple(clues.get((r, c)) for c in range(self.cols)) for r in range(self.rows))
        return replace(self, grid=grid, given_solution=None)


def clues_added(read_clues: Any) -> Any:
    """A genre's ``CANDIDATES`` part made from its ``READ_CLUES`` (``(puzzle, solution) -> the
    puzzle with every clue the solution supports``): the clues of that puzzle that ``puzzle``
    lacks."""
    def candidates(puzzle: Any, solution: Any) -> dict:
        given = puzzle.clues()
        return {k: v for k, v in read_clues(puzzle, solution).clues().items() if k not in given}

    return candidates


#: A solution as two 0/1 grids: horizontal and vertical edges or links (loop genres).
EdgeGrids = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


def edge_grids_json(puzzle: Any, solution: EdgeGrids) -> dict[str, list[list[int]]]:
    """``{"horizontal": rows, "vertical": rows}`` of a two-grid solution (a genre's
    ``solution_json``)."""
    horizontal, vertical = solution
    return {"horizontal": [list(row) for row in horizontal], "vertical": [list(row) for row in vertical]}


def edge_grids_from_json(value: object, horizontal: tuple[int, int], vertical: tuple[int, int],
                         noun: str) -> EdgeGrids:
    """The inverse of :func:`edge_grids_json` for grids of the shapes ``(height, width)`` given;
    ValueError naming the ``noun`` ("edges", "links") unless both fit."""
    def grid(key: str, height: int, width: int) -> tuple[tuple[int, ...], ...]:
        found = value.get(key) if isinstance(value, dict) else None
        if not (isinstance(found, list) and len(found) == height
                and all(isinstance(row, list) and len(row) == width
                        and all(type(x) is int and x in (0, 1) for x in row) for row in found)):
            raise ValueError(f"'{key}' is not {height} rows of {width} 0/1 {noun}")
        return tuple(tuple(row) for row in found)

    return grid("horizontal", *horizontal), grid("vertical", *vertical)


def shading_rows_from_json(puzzle: GridPuzzle, value: object) -> tuple[str, ...]:
    """The inverse of :func:`~satgrid.registry.rows_json` for shading solutions; ValueError
    unless ``value`` is the puzzle's rows of ``#`` (shaded) and ``.``."""
    if not (isinstance(value, list) and len(value) == puzzle.rows
            and all(isinstance(row, str) and len(row) == puzzle.cols and set(row) <= set("#.")
                    for row in value)):
        raise ValueError(f"not {puzzle.rows} rows of {puzzle.cols} '#' or '.'")
    return tuple(value)
