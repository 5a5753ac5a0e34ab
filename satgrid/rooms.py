"""Rooms: a grid divided into side-connected regions, for the genres whose puzzle is a clue grid
(possibly empty) plus rooms. Plain Python (no pysat), so checkers may use it too. Nothing here
knows a genre; the geometry is :mod:`satgrid.grid`'s (:meth:`~satgrid.grid.Grid.rooms_from_ids`,
:meth:`~satgrid.grid.Grid.rooms_from_borders`).

Representation (:data:`Rooms`): a tuple of rooms, each a tuple of cells in reading order, the rooms
ordered by their first cell. This is the order pzprjs numbers rooms in (its room graph is built
cell by cell in reading order, ``AreaRoomGraph``), so a room's index is its number in a puz.link
room-number body and in a pzprv3 room grid. :func:`canonical` puts any partition in this form.

* :func:`rooms_from_ids` / :func:`rooms_from_borders`: rooms of an id grid (two separate groups
  with one id are two rooms, as pzprjs reads them) or of a set of borders;
  :func:`room_ids` the id grid back (0-based room indexes), :func:`borders` the borders between
  rooms (:data:`~satgrid.grid.EdgeKey` keys ``("v", r, c)``: left of cell ``(r, c)``;
  ``("h", r, c)``: above it), :func:`top_cell` pzprjs's "top" cell of a room (where it shows a
  room's number: the topmost cell of the leftmost column), :func:`problems` what is wrong with a
  partition.
* :class:`RoomPuzzle`: a :class:`~satgrid.puzzle.GridPuzzle` with ``rooms``; ``with_clues``
  keeps them, equality includes them.
* Text (:func:`read_text`, :func:`room_lines`): a genre's own text is its clue grid followed by
  a grid of room ids, one token a cell (numbers or letters, as the puzzlekit dataset writes
  them), rows x cols each, no blank line between (blank lines separate puzzles); a genre without
  clues writes the room grid alone. Written back with canonical ids 1..n in room order.
* JSON (:func:`rooms_json`, :func:`rooms_from_json`): the id grid, ids 1..n as in the text.
* :func:`random_rooms` and :func:`grow_rooms`: random partitions for generators (algorithms in
  their docstrings).

The formats' pieces live with the formats: the puz.link border body
(:data:`satgrid.formats.puzzlink.ROOMS`, :func:`~satgrid.formats.puzzlink.room_numbers`), the
pzprv3 room section (:func:`satgrid.formats.pzprv3.room_sections`), the puzzlekit room grid
(:class:`satgrid.formats.puzzlekit.WithRooms`), and the drawing
(:func:`satgrid.render_svg.rooms`).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Collection, Hashable, Iterable, Sequence

from .grid import Cell, EdgeKey, Grid
from .puzzle import GridPuzzle
from .reader import Record

Room = tuple[Cell, ...]
Rooms = tuple[Room, ...]
#: A grid row as read: its line number and its tokens with their 1-based columns.
TokenRow = tuple[int, list[tuple[str, int]]]

_ROOM_ID = re.compile(r"[A-Za-z0-9]+")


# -- representation -------------------------------------------------------------------------------
def canonical(groups: Iterable[Iterable[Cell]]) -> Rooms:
    """Rooms as :data:`Rooms`: each room's cells in reading order, rooms by their first cell."""
    return tuple(sorted((tuple(sorted(group)) for group in groups), key=lambda room: room[0]))


def rooms_from_ids(ids: Sequence[Sequence[Hashable]], outside: Collection[Hashable] = ()) -> Rooms:
    """The rooms of an id grid (``ids[r][c]``): side-connected groups of equal ids; a cell whose
    id is one of ``outside`` is in no room (a blocked cell)."""
    rows, cols = len(ids), len(ids[0]) if ids else 0
    return canonical(room for room in Grid.of(rows, cols).rooms_from_ids(ids)
                     if ids[room[0][0]][room[0][1]] not in outside)


def rooms_from_borders(rows: int, cols: int, walls: Collection[EdgeKey]) -> Rooms:
    """The rooms a set of borders draws (lattice edge keys between cells)."""
    return canonical(Grid.of(rows, cols).rooms_from_borders(walls))


def room_ids(rows: int, cols: int, rooms: Rooms) -> tuple[tuple[int, ...], ...]:
    """Each cell's room index (0-based, the position in ``rooms``), row by row; -1 for a cell in
    no room (not a partition: :func:`problems` says why)."""
    ids = [[-1] * cols for _ in range(rows)]
    for k, room in enumerate(rooms):
        for r, c in room:
            ids[r][c] = k
    return tuple(map(tuple, ids))


def borders(rows: int, cols: int, rooms: Rooms) -> frozenset[EdgeKey]:
    """The borders between side-neighbouring cells of different rooms."""
    ids = room_ids(rows, cols, rooms)
    grid = Grid.of(rows, cols)
    return frozenset(grid.border(p, q) for p, q in grid.adjacent_pairs() if ids[p[0]][p[1]] != ids[q[0]][q[1]])


def top_cell(room: Sequence[Cell]) -> Cell:
    """pzprjs's top cell of a room (``CellList.getTopCell``): the topmost cell of its leftmost
    column. pzprjs keeps a room's number there (pzprv3 files write it in that cell)."""
    return min(room, key=lambda p: (p[1], p[0]))


def problems(rows: int, cols: int, rooms: Sequence[Sequence[Cell]]) -> list[str]:
    """Why ``rooms`` is not a partition of the grid into side-connected rooms (empty if it is)."""
    grid = Grid.of(rows, cols)
    out, seen = [], set()
    for k, room in enumerate(rooms, 1):
        if not room:
            out.append(f"room {k} is empty")
            continue
        outside = [p for p in room if p not in grid]
        if outside:
            out.append(f"room {k} holds {outside[0]}, outside the {rows}x{cols} grid")
            continue
        twice = seen.intersection(room)
        if twice:
            out.append(f"cell {min(twice)} is in two rooms")
        seen.update(room)
        if len(grid.components(room)) > 1:
            out.append(f"room {k} is not side-connected")
    missing = len(grid) - len(seen)
    if missing > 0:
        out.append(f"{missing} cell(s) in no room")
    return out


@dataclass(frozen=True)
class RoomPuzzle(GridPuzzle):
    """A clue grid plus rooms (:data:`Rooms`, canonical). A genre subclasses it as it would
    :class:`~satgrid.puzzle.GridPuzzle` and builds it with ``rooms=canonical(...)``."""

    rooms: Rooms = ()

    @cached_property
    def room_ids(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's room index (:func:`room_ids`)."""
        return room_ids(self.rows, self.cols, self.rooms)

    def room_of(self, p: Cell) -> int:
        """The index of the room holding cell ``p``."""
        return self.room_ids[p[0]][p[1]]

    @cached_property
    def room_borders(self) -> frozenset[EdgeKey]:
        """The borders between rooms (:func:`borders`)."""
        return borders(self.rows, self.cols, self.rooms)


# -- text -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RoomText:
    """A genre's text read by :func:`read_text`: the clue grid's rows (tokens with their
    columns, for the genre to read; empty without clues), the rooms, and ``places[r][c]``, the
    (line, column) of cell ``(r, c)``'s room id (for a genre's errors about a room:
    ``record.error(message, *text.places[r][c])``)."""

    rows: int
    cols: int
    clues: list[TokenRow] = field(repr=False)
    rooms: Rooms
    places: tuple[tuple[tuple[int, int], ...], ...] = field(default=(), repr=False)


def _rectangular(record: Record, rows: list[TokenRow], what: str, width: int) -> None:
    for n, tokens in rows:
        if len(tokens) != width:
            col = tokens[width][1] if len(tokens) > width else tokens[-1][1] + len(tokens[-1][0])
            raise record.error(f"a row of {len(tokens)} cells in the {what}; the grid has {width} "
                               "columns (the grid is not rectangular)", n, col)


def read_room_grid(record: Record, rows: list[TokenRow], width: int | None = None,
                   outside: Collection[str] = ()) -> Rooms:
    """The rooms of a grid of room-id tokens (letters and digits; ``a`` and ``A`` differ; a
    token of ``outside`` is a cell in no room); errors at the line and column of a row that is
    not ``width`` wide or of a bad token."""
    if not rows:
        raise record.error("no room grid found")
    width = len(rows[0][1]) if width is None else width
    _rectangular(record, rows, "room grid", width)
    ids = []
    for n, tokens in rows:
        for token, col in tokens:
            if not _ROOM_ID.fullmatch(token) and token not in outside:
                raise record.error(f"{token!r} is not a room id (letters and digits)", n, col)
        ids.append([token for token, _ in tokens])
    return rooms_from_ids(ids, outside)


def read_text(record: Record, clues: bool = True, outside: Collection[str] = ()) -> RoomText:
    """A genre's text of a clue grid followed by its room grid (``clues``), or of the room grid
    alone. The two grids are the record's non-blank lines cut in half: each rows x cols. Errors
    (with line and column): an odd number of rows, a grid that is not rectangular, a room grid
    of another width than the clue grid, a bad room id. ``outside``: tokens of the room grid
    that mark a cell in no room (a genre's blocked cells)."""
    rows = record.token_rows()
    if not rows:
        raise record.error("no grid found")
    width = len(rows[0][1])
    if not clues:
        return RoomText(len(rows), width, [], read_room_grid(record, rows, width, outside), _places(rows))
    if len(rows) % 2:
        raise record.error(f"{len(rows)} rows: a clue grid and a room grid below it have equally "
                           "many rows (an even number in all)", rows[-1][0])
    half = len(rows) // 2
    _rectangular(record, rows[:half], "clue grid", width)
    room_rows = rows[half:]
    if len(room_rows[0][1]) != width:
        n, tokens = room_rows[0]
        raise record.error(f"the room grid (from this line on) has {len(tokens)} columns, the clue "
                           f"grid {width}", n, tokens[-1][1])
    return RoomText(half, width, rows[:half], read_room_grid(record, room_rows, width, outside),
                    _places(room_rows))


def _places(rows: list[TokenRow]) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple((n, col) for _, col in tokens) for n, tokens in rows)


def room_lines(rows: int, cols: int, rooms: Rooms, outside: str = ".") -> list[str]:
    """The room grid as text: canonical ids 1..n (room order), right-aligned to one width; a
    cell in no room as ``outside``."""
    ids = room_ids(rows, cols, rooms)
    width = max(len(str(len(rooms))), len(outside))
    return [" ".join((outside if k < 0 else str(k + 1)).rjust(width) for k in row) for row in ids]


def rooms_json(rows: int, cols: int, rooms: Rooms) -> list[list[int]]:
    """The room grid as JSON: rows of ids 1..n (as the text writes them), 0 a cell in no room."""
    return [[k + 1 for k in row] for row in room_ids(rows, cols, rooms)]


def rooms_from_json(value: object, rows: int, cols: int, outside: Collection[Hashable] = ()) -> Rooms:
    """The inverse of :func:`rooms_json` (any ints or strings as ids; ``outside``: the ids of
    cells in no room, ``(0,)`` for what :func:`rooms_json` writes); ValueError unless ``value``
    is ``rows`` rows of ``cols`` ids."""
    if not (isinstance(value, list) and len(value) == rows
            and all(isinstance(row, list) and len(row) == cols
                    and all((type(v) is int) or (isinstance(v, str) and _ROOM_ID.fullmatch(v)) for v in row)
                    for row in value)):
        raise ValueError(f"'rooms' is not {rows} rows of {cols} room ids")
    return rooms_from_ids(value, outside)


# -- random partitions ------------------------------------------------------------------------------
def grow_rooms(rows: int, cols: int, seeds: Sequence[Iterable[Cell]], rng: random.Random,
               max_size: int | None = None, min_size: int = 1) -> Rooms | None:
    """A random partition in which each room holds exactly one seed group (cells given), or None
    when this draw leaves a cell no room can take or a room below ``min_size``.

    Algorithm (randomised multi-source growth): every seed group starts a room; then, while a
    cell is unassigned, pick a room that can grow (it has an unassigned side neighbour and fewer
    than ``max_size`` cells; rooms still below ``min_size`` first), uniformly at random, and give
    it one of its unassigned side neighbours, uniformly at random. Rooms stay side-connected as
    they only grow by neighbours; a seed group that is not side-connected makes a room that is
    not either (callers pass connected groups)."""
    grid = Grid.of(rows, cols)
    largest = max_size or len(grid)
    owner: dict[Cell, int] = {}
    rooms: list[list[Cell]] = []
    for k, group in enumerate(seeds):
        cells = list(group)
        for p in cells:
            if p in owner or p not in grid:
                raise ValueError(f"seed cell {p} is outside the grid or in two seed groups")
            owner[p] = k
        rooms.append(cells)
    frontier: list[set[Cell]] = [{q for p in room for q in grid.neighbours(p) if q not in owner} for room in rooms]
    left = len(grid) - len(owner)
    while left:
        growable = [k for k, room in enumerate(rooms) if frontier[k] and len(room) < largest]
        if not growable:
            return None
        small = [k for k in growable if len(rooms[k]) < min_size]
        k = rng.choice(small or growable)
        p = rng.choice(sorted(frontier[k]))
        owner[p] = k
        rooms[k].append(p)
        left -= 1
        for f in frontier:
            f.discard(p)
        frontier[k].update(q for q in grid.neighbours(p) if q not in owner)
    if any(len(room) < min_size for room in rooms):
        return None
    return canonical(rooms)


def random_rooms(rows: int, cols: int, rng: random.Random, min_size: int = 1,
                 max_size: int | None = None, count: int | None = None, attempts: int = 200) -> Rooms:
    """A random partition into side-connected rooms of ``min_size``..``max_size`` cells
    (``max_size`` None: no bound): ``count`` rooms when given, else about ``cells / m`` (give or
    take one, within what the bounds allow), ``m`` the middle of ``min_size..min(max_size,
    2 * min_size + 4)``.

    Algorithm: draw ``count`` distinct seed cells uniformly and grow them into rooms with
    :func:`grow_rooms`; a draw that leaves a room too small or a cell no room can take (all its
    neighbouring rooms full) is thrown away and drawn again, up to ``attempts`` times.
    ValueError when the bounds admit no partition (no count ``k`` with ``k * min_size <= cells
    <= k * max_size``) or no draw succeeds."""
    n = rows * cols
    largest = n if max_size is None else max_size
    if n == 0:
        return ()
    if not 1 <= min_size <= largest:
        raise ValueError(f"room sizes {min_size}..{largest}: need 1 <= min_size <= max_size")
    low, high = -(-n // largest), n // min_size
    if count is not None and not (low <= count <= high and count <= n):
        raise ValueError(f"{count} rooms of {min_size}..{largest} cells cannot fill a {rows}x{cols} grid")
    if low > high:
        raise ValueError(f"no partition of {n} cells into rooms of {min_size}..{largest} cells")
    cells = list(Grid.of(rows, cols).cells)
    for _ in range(attempts):
        k = count
        if k is None:
            middle = max(low, min(high, round(n / ((min_size + min(largest, 2 * min_size + 4)) / 2))))
            k = max(low, min(high, middle + rng.randint(-1, 1)))
        rooms = grow_rooms(rows, cols, [[p] for p in rng.sample(cells, k)], rng, max_size, min_size)
        if rooms is not None:
            return rooms
    raise ValueError(f"no random partition into rooms of {min_size}..{largest} cells found in {attempts} draws")



def random_rectangles(rows: int, cols: int, rng: random.Random, max_side: int = 3, min_size: int = 1,
                      attempts: int = 200) -> Rooms:
    """A random partition into rectangular rooms with sides of 1..``max_side`` cells and at least
    ``min_size`` cells (rooms as many genres draw them).

    Algorithm: the first cell in reading order that no room covers yet is the top-left corner of
    the next room (so every partition into rectangles can come out); its width is drawn uniformly
    from 1 to the uncovered run to its right, its height from 1 to the rows below in which the
    cells under it are all uncovered (each at most ``max_side``), among the sizes of at least
    ``min_size`` cells; a corner with no such size throws the draw away, up to ``attempts``
    draws. On big grids nearly every draw is thrown away (a corner boxed in somewhere is the
    likelier the more corners there are), so when every draw fails, or at once on a grid of more
    than :data:`WHOLE` cells, the grid is cut into tiles of about :data:`TILE` x :data:`TILE`
    cells, each drawn on its own (their rooms then never cross a tile's border). ValueError when none succeeds or the bounds admit no room (``min_size`` above
    ``max_side`` squared)."""
    if max_side < 1 or min_size > max_side * max_side:
        raise ValueError(f"rectangles of sides 1..{max_side} hold no room of {min_size} cells")
    for _ in range(attempts if rows * cols <= WHOLE else 0):
        owner = [[-1] * cols for _ in range(rows)]
        found: list[list[Cell]] = []
        for r in range(rows):
            for c in range(cols):
                if owner[r][c] >= 0:
                    continue
                wide = 0
                while c + wide < cols and owner[r][c + wide] < 0 and wide < max_side:
                    wide += 1
                shapes = []
                for w in range(1, wide + 1):
                    h = 0
                    while r + h < rows and h < max_side and all(owner[r + h][c + i] < 0 for i in range(w)):
                        h += 1
                    shapes += [(w, k) for k in range(1, h + 1) if w * k >= min_size]
                if not shapes:
                    break
                w, h = rng.choice(shapes)
                room = [(r + a, c + b) for a in range(h) for b in range(w)]
                for a, b in room:
                    owner[a][b] = len(found)
                found.append(room)
            else:
                continue
            break
        else:
            return canonical(found)
    if rows > TILE or cols > TILE:
        return canonical([(r0 + r, c0 + c) for r, c in room]
                         for r0, height in _spans(rows) for c0, width in _spans(cols)
                         for room in random_rectangles(height, width, rng, max_side, min_size, attempts))
    raise ValueError(f"no random partition into rectangles of sides 1..{max_side} and at least "
                     f"{min_size} cells found in {attempts} draws")


#: The side of the tiles :func:`random_rectangles` falls back to on grids where whole draws fail,
#: and the most cells it draws whole (beyond, nearly every draw fails: 1 in 20 40x40 grids with
#: sides up to 3 and 2 cells or more found none in 200 draws).
TILE, WHOLE = 12, 40 * 40


def _spans(n: int) -> list[tuple[int, int]]:
    """``n`` rows (or columns) cut into spans of :data:`TILE`, the last one taking the rest:
    ``(start, length)`` each."""
    starts = list(range(0, max(n - TILE, 0) + 1, TILE)) or [0]
    return [(a, (starts[i + 1] if i + 1 < len(starts) else n) - a) for i, a in enumerate(starts)]
