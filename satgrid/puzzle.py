"""Shared pieces of every genre's puzzle type."""
from __future__ import annotations

from dataclasses import dataclass
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
