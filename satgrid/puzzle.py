"""Shared pieces of every genre's puzzle type."""
from __future__ import annotations

from dataclasses import dataclass


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
