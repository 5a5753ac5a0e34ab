"""Other solutions of a Sudoku's rules found without SAT: digit swaps on pair components.

Take a valid grid G and two values d != e. The cells holding d or e (2n of them) form a graph,
two cells linked when they share a row, a column or a box. Exchanging d and e on one connected
component K of that graph gives a grid G' that is valid again: every unit holds exactly one d-cell
and one e-cell, which it links, so both lie in K (the unit's values are exchanged, and it still
holds 1..n once) or both lie outside it (the unit is unchanged). G' differs from G exactly on K,
so it breaks exactly the givens inside K and keeps every other one. Hence a given that is the
only given of some component is needed: the puzzle without it has the second solution G'. No
checker run is needed on G' (the argument above is the proof; ``tests/test_sudoku_witnesses.py``
also checks every swapped grid with the independent checker, and the audits with and without
these witnesses against each other).

The cells of such a component are *unavoidable sets* of the solution grid (every puzzle with
that solution has a given in each): the 4-cell "deadly pattern" (two rows, two columns, two boxes)
and its longer two-value relatives, the smallest kind McGuire, Tugemann and Civario enumerate
(G. McGuire, B. Tugemann, G. Civario, "There is no 16-clue Sudoku: solving the Sudoku minimum
number of clues problem via hitting set enumeration", arXiv:1201.0749, 2012; Experimental
Mathematics 23(2), 2014). Sets over three or more values, which their search also finds, are not
looked for here: they would prove most of the remaining givens needed, but finding them costs
more than the SAT questions they save (measured in encodings/batch.md).

Components are found on rows: each row holds one d-cell and one e-cell (a row link), so a
component is a set of rows. Column c's d-cell and e-cell link the row r whose e-cell is in column
c with the row pi(r) whose d-cell is (pi = rows of d by column, after columns of e by row); box
b's two cells link the rows of its d-cell and its e-cell. The components are the cycles of the
permutation pi, merged along the box links (union-find over the cycles).
"""
from __future__ import annotations

from typing import Sequence

Cell = tuple[int, int]


class DigitPairs:
    """The rows of each value by column and by box, and its column by row, of a valid n x n grid
    with boxes ``h`` tall and ``w`` wide, from which :meth:`components` are read."""

    def __init__(self, solution: Sequence[Sequence[int]], h: int, w: int):
        n = self.n = len(solution)
        across = n // w
        #: col_of[d][r]: the column of d in row r; row_of[d][c]: the row of d in column c;
        #: box_row[d][b]: the row of d in box b
        self.col_of = [[0] * n for _ in range(n + 1)]
        self.row_of = [[0] * n for _ in range(n + 1)]
        self.box_row = [[0] * n for _ in range(n + 1)]
        col_of, row_of, box_row = self.col_of, self.row_of, self.box_row
        for r, row in enumerate(solution):
            first = (r // h) * across
            for c, d in enumerate(row):
                col_of[d][r] = c
                row_of[d][c] = r
                box_row[d][first + c // w] = r

    def components(self, d: int, e: int) -> list[int] | None:
        """For each row, a number naming the component of the d/e graph its two cells lie in
        (rows with the same number are one component); None when there is one component."""
        n = self.n
        rows_of_d = self.row_of[d]
        pi = list(map(rows_of_d.__getitem__, self.col_of[e]))
        r, length = pi[0], 1
        while r:
            r = pi[r]
            length += 1
        if length == n:  # one cycle: the row and column links join every row
            return None
        label = [-1] * n
        cycles = 0
        for start in range(n):
            if label[start] < 0:
                r = start
                while label[r] < 0:
                    label[r] = cycles
                    r = pi[r]
                cycles += 1
        parent = list(range(cycles))
        left = cycles
        for a, b in zip(self.box_row[d], self.box_row[e]):
            a, b = label[a], label[b]
            while parent[a] != a:
                a = parent[a]
            while parent[b] != b:
                b = parent[b]
            if a != b:
                parent[a] = b
                left -= 1
                if left == 1:
                    return None
        for r in range(n):
            a = label[r]
            while parent[a] != a:
                a = parent[a]
            label[r] = a
        return label


def swapped(solution: Sequence[Sequence[int]], d: int, e: int, rows: Sequence[int]) -> list[list[int]]:
    """``solution`` with d and e exchanged in ``rows`` (a component's rows)."""
    grid = [list(row) for row in solution]
    swap = {d: e, e: d}
    for r in rows:
        grid[r] = [swap.get(v, v) for v in grid[r]]
    return grid


def witnesses(givens: Sequence[Sequence[int | None]], solution: Sequence[Sequence[int]],
              h: int, w: int) -> list[frozenset[Cell]]:
    """For each pair of values and each component of the pair's cells that holds givens (see the
    module doc), the givens that swapping the pair on that component breaks. A pair with one
    given in all is one set without a look at its components (swapping the pair everywhere
    breaks that given alone)."""
    n = len(solution)
    rows: list[list[int]] = [[] for _ in range(n + 1)]
    keys: list[list[Cell]] = [[] for _ in range(n + 1)]
    for r, row in enumerate(givens):
        for c, v in enumerate(row):
            if v is not None:
                rows[v].append(r)
                keys[v].append((r, c))
    pairs = DigitPairs(solution, h, w)
    out: list[frozenset[Cell]] = []
    for d in range(1, n + 1):
        rows_d, keys_d = rows[d], keys[d]
        for e in range(d + 1, n + 1):
            both = keys_d + keys[e]
            if len(both) <= 1:
                if both:
                    out.append(frozenset(both))
                continue
            label = pairs.components(d, e)
            if label is None:
                out.append(frozenset(both))
                continue
            groups: dict[int, list[Cell]] = {}
            for r, key in zip(rows_d + rows[e], both):
                groups.setdefault(label[r], []).append(key)
            out.extend(map(frozenset, groups.values()))
    return out
