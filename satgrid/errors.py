"""The one exception hierarchy of satgrid.

Library code raises these; the CLI turns each into one line ``satgrid: error: ...`` and a non-zero
exit, never a traceback.
"""
from __future__ import annotations


class SatgridError(Exception):
    """Base class of every error satgrid reports to a user."""


class ParseError(SatgridError):
    """Bad input: names the source, the line (1-based) and, where known, the column."""

    def __init__(self, source: str, line: int | None, message: str, column: int | None = None):
        self.source, self.line, self.column, self.message = source, line, column, message
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class UnsupportedGenre(SatgridError):
    """A genre, variant or format satgrid does not know."""


class SolverError(SatgridError):
    """A solver could not be created or used as asked (unknown name, missing feature, bad output)."""


class CheckFailed(SatgridError):
    """Internal error: a decoded solution failed the independent rule checker.

    This means an encoding bug; satgrid never prints such a solution.
    """


class LimitReached(SatgridError):
    """A time or conflict limit stopped a query that has no "unknown" answer to give."""
