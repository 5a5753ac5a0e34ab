"""A loop through cell centres as a solution: its links as two 0/1 grids.

Genres whose answer is a loop (or a line) between side-adjacent cells share this solution shape
and its readers and writers: ``horizontal[r][c]`` links cell ``(r, c)`` to ``(r, c + 1)`` (``rows``
rows of ``cols - 1``), ``vertical[r][c]`` links ``(r, c)`` to ``(r + 1, c)`` (``rows - 1`` rows of
``cols``), 1 = on the loop. The model's layer is :meth:`~satgrid.model.Model.links`, keyed
``("line", r1, c1, r2, c2)``.

Direction tokens (the puzzlekit dataset's loop cells, pzprjs's ``decodeBorderLine`` read cell by
cell): the two directions the loop leaves a cell by, ``n``, ``s``, ``e``, ``w``, written in that
order (``ns``, ``ew``, ``ne``, ``nw``, ``se``, ``sw``).
"""
from __future__ import annotations

from typing import Callable, Iterable

from .connectivity import Value
from .encoding import Encoding
from .grid import Cell, Grid
from .model import read
from .puzzle import cell_name

Links = tuple[tuple[int, ...], ...]
#: ``(horizontal, vertical)``, as the module doc lays them out.
LinkGrids = tuple[Links, Links]
Step = tuple[int, int]

#: The direction letters and their steps, in the order tokens write them.
DIRECTIONS: dict[str, Step] = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}
LETTERS: dict[Step, str] = {step: letter for letter, step in DIRECTIONS.items()}


def link_key(p: Cell, q: Cell) -> tuple:
    """The variable key of the link between side-adjacent cells ``p`` and ``q`` (the builder's
    :meth:`~satgrid.model.Model.links`, layer ``line``)."""
    a, b = sorted((p, q))
    return ("line", *a, *b)


def empty(rows: int, cols: int) -> LinkGrids:
    """No link drawn."""
    return ((0,) * (cols - 1),) * rows, ((0,) * cols,) * (rows - 1)


def from_pairs(rows: int, cols: int, on: Callable[[Cell, Cell], bool]) -> LinkGrids:
    """The grids of the links ``(p, q)`` (``p`` before ``q``) for which ``on(p, q)`` holds."""
    horizontal = tuple(tuple(int(on((r, c), (r, c + 1))) for c in range(cols - 1)) for r in range(rows))
    vertical = tuple(tuple(int(on((r, c), (r + 1, c))) for c in range(cols)) for r in range(rows - 1))
    return horizontal, vertical


def read_links(encoding: Encoding, layer: str, value: Value, rows: int, cols: int) -> LinkGrids:
    """A :meth:`~satgrid.model.Model.links` layer of an assignment as link grids."""
    on = read(encoding, layer, value)
    return from_pairs(rows, cols, lambda p, q: on[p, q])


def pairs(links: LinkGrids) -> list[tuple[Cell, Cell]]:
    """The drawn links as cell pairs ``(p, q)``, ``p`` before ``q``: horizontal ones, then vertical."""
    horizontal, vertical = links
    return ([((r, c), (r, c + 1)) for r, row in enumerate(horizontal) for c, x in enumerate(row) if x]
            + [((r, c), (r + 1, c)) for r, row in enumerate(vertical) for c, x in enumerate(row) if x])


def exits(links: LinkGrids) -> dict[Cell, list[Step]]:
    """The steps (``(-1, 0)`` up, ...) by which the drawn links leave each cell they touch."""
    found: dict[Cell, list[Step]] = {}
    for (r, c), (r2, c2) in pairs(links):
        found.setdefault((r, c), []).append((r2 - r, c2 - c))
        found.setdefault((r2, c2), []).append((r - r2, c - c2))
    return found


def token(steps: Iterable[Step]) -> str:
    """The direction token of a cell's steps (``ns``, ``se``, ...), empty without one."""
    return "".join(sorted((LETTERS[s] for s in steps), key="nsew".index))


def is_token(text: str) -> bool:
    """Whether ``text`` is a loop cell's direction token: two different direction letters."""
    return len(text) == 2 and text[0] != text[1] and set(text.lower()) <= set(DIRECTIONS)


def from_tokens(rows: int, cols: int, tokens: dict[Cell, tuple[str, int, int]],
                error: Callable[[str, int, int], Exception]) -> LinkGrids:
    """Link grids from direction tokens ``{cell: (token, line, column)}`` (:func:`is_token`; a
    cell left out is off the loop): a step must stay in the grid and the cell it leads to must
    step back, else ``error(message, line, column)`` is raised."""
    grid = Grid.of(rows, cols)
    steps = {p: {DIRECTIONS[ch] for ch in token.lower()} for p, (token, _, _) in tokens.items()}
    for (r, c), (token, n, col) in tokens.items():
        for dr, dc in sorted(steps[r, c]):
            q = (r + dr, c + dc)
            if q not in grid:
                raise error(f"{token!r} at {cell_name(r, c)} leaves the grid", n, col)
            if (-dr, -dc) not in steps.get(q, ()):
                raise error(f"the loop leaves {cell_name(r, c)} towards {cell_name(*q)}, whose token does "
                            "not come back", n, col)
    return from_pairs(rows, cols, lambda p, q: (q[0] - p[0], q[1] - p[1]) in steps.get(p, ()))


def differences(a: LinkGrids, b: LinkGrids) -> set[Cell]:
    """The cells the two drawings pass differently (a link at them is in one drawing only)."""
    found: set[Cell] = set()
    for p, q in set(pairs(a)) ^ set(pairs(b)):
        found.update((p, q))
    return found


def describe(key: tuple, value: bool) -> str:
    """One link's value in words: ``the link r1c2-r1c3 is on the loop`` (or ``crossed out``)."""
    _, r, c, r2, c2 = key
    return f"the link {cell_name(r, c)}-{cell_name(r2, c2)} is {'on the loop' if value else 'crossed out'}"
