"""satgrid: a SAT-encoding compiler and solver harness for grid logic puzzles."""

__version__ = "0.1.0"
