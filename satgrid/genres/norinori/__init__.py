"""Norinori: shade two cells in every room so that the shaded cells form dominoes.

Rules (Nikoli, "Norinori"; pzprjs ``lits.js``, which holds Norinori beside LITS): every room holds
exactly two shaded cells, and each shaded cell touches exactly one other shaded cell side by side,
so the shaded cells form dominoes; a domino may lie across a room border.

A Norinori puzzle is its rooms and nothing else: there are no clues (no numbers, no givens), so an
audit has no clue to call redundant and says so, and a generated puzzle is minimal in the only
sense left (the sampler's rooms make it unique; there is nothing to remove).

Text: the room grid (:mod:`satgrid.rooms`: a room id a cell, letters or numbers, written back as
1..n in room order). Solution: the same grid with shaded cells ``#`` (unshaded ``.``, ``+`` or the
cell's room id), or rows of ``#`` and ``.``.

Encoding (:func:`rules`, on the model builder; figures in ``encodings/norinori.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* Every room holds two shaded cells: :meth:`~satgrid.model.Model.count_in` per room.
* Each shaded cell has exactly one shaded side neighbour: the vocabulary rule
  :meth:`~satgrid.model.Model.true_neighbours` with ``k = 1`` (per cell ``shaded -> exactly one
  neighbour shaded``: an at-least-one clause and pairwise at-most-one clauses, each guarded).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Collection, Sequence

from ... import rooms as rooms_layer
from ... import shading
from ...encoding import Encoding
from ...formats import puzzlekit, puzzlink, pzprv3
from ...grid import Grid as Geometry
from ...model import Model, read_shading
from ...puzzle import Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from ...rooms import RoomPuzzle, Rooms
from .checker import check_norinori

NAME = "norinori"
SUMMARY = "Norinori: two shaded cells in every room, the shaded cells forming dominoes"
EXAMPLES = "norinori.txt"

Cell = tuple[int, int]
Solution = tuple[str, ...]

#: Shaded cells in every room.
PER_ROOM = 2


@dataclass(frozen=True)
class NorinoriPuzzle(RoomPuzzle):
    """The rooms of a Norinori grid (the clue grid holds nothing)."""

    genre: ClassVar[str] = NAME


def puzzle_of(found: Rooms, rows: int, cols: int, name: str = "", source: Source = Source()) -> NorinoriPuzzle:
    """The puzzle of rooms (canonical) on a rows x cols grid."""
    return NorinoriPuzzle(tuple((None,) * cols for _ in range(rows)), name, source, rooms=found)


def small_room(found: Rooms) -> int | None:
    """The index of the first room too small for two shaded cells, if any."""
    return next((k for k, room in enumerate(found) if len(room) < PER_ROOM), None)


_SMALL = "a room of one cell (at {}): every Norinori room holds two shaded cells"


# -- parsing ------------------------------------------------------------------------------------
def parse(record: Record) -> NorinoriPuzzle:
    """The room grid (:func:`satgrid.rooms.read_text` without clues); a room of one cell is an
    error at its cell."""
    text = rooms_layer.read_text(record, clues=False)
    for key, actual in (("rows", text.rows), ("cols", text.cols)):
        if key in record.meta and number(record.meta[key]) != actual:
            raise record.error(f"header says {key}: {record.meta[key]}, the grid has {actual}")
    small = small_room(text.rooms)
    if small is not None:
        cell = text.rooms[small][0]
        raise record.error(_SMALL.format(cell_name(*cell)), *text.places[cell[0]][cell[1]])
    return puzzle_of(text.rooms, text.rows, text.cols, record.name, Source(record.source, record.line))


def _room_label(puzzle: NorinoriPuzzle, r: int, c: int) -> str:
    """What the text output shows on an unshaded cell: its room's id."""
    return str(puzzle.room_ids[r][c] + 1)


def parse_solution(record: Record, puzzle: NorinoriPuzzle) -> Solution | None:
    """A ``solution:`` section: the grid with ``#`` shaded and ``.``, ``+`` or the cell's room id
    (as :func:`render` writes it) unshaded; or rows of ``#`` and ``.``, a character a cell
    (:func:`satgrid.shading.parse_shading`)."""
    return shading.parse_shading(record, puzzle, _room_label, "room id")


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: NorinoriPuzzle) -> tuple:
    """The rooms decide every clause."""
    return (NAME, puzzle.rows, puzzle.cols, puzzle.rooms)


def rules(m: Model, puzzle: NorinoriPuzzle, counts: Sequence[int] | None = None) -> dict[Cell, int]:
    """The two rules of the module docstring; ``counts``: another number of shaded cells for each
    room (the sampler's rooms on the way, :func:`_unique`). Returns the shaded layer."""
    shaded = m.cells("shaded")
    for room, count in zip(puzzle.rooms, counts or [PER_ROOM] * len(puzzle.rooms)):
        m.count_in("every room holds two shaded cells", room, shaded, count)
    m.true_neighbours("each shaded cell touches exactly one shaded cell", shaded, 1)
    return shaded


def encode(puzzle: NorinoriPuzzle) -> Encoding:
    m = Model(Geometry.of(puzzle.rows, puzzle.cols))
    rules(m, puzzle)
    return m.build()


def decode(puzzle: NorinoriPuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "shaded", value, puzzle.rows, puzzle.cols)


def check(puzzle: NorinoriPuzzle, solution: Solution) -> list[str]:
    return check_norinori(puzzle.rows, puzzle.cols, puzzle.rooms, solution)


#: Golden samples: (the genre's text, the status of ``solve --unique``, the solution or None),
#: checked against brute force in tests/test_norinori.py.
SAMPLES = (
    ("1 2 2 2\n1 2 3 3\n1 2 2 3\n4 4 2 3\n", "unique", ("#.##", "#...", "...#", "##.#")),
    ("a a\na a\n", "multiple", None),  # any domino of the one 2x2 room
    ("1 2\n1 2\n", "unsatisfiable", None),  # each column is a room: its domino touches the other
)


# -- output -------------------------------------------------------------------------------------
def render(puzzle: NorinoriPuzzle, solution: Solution | None = None) -> str:
    """The room grid (ids 1..n in room order, columns aligned); a solution's shaded cells ``#``."""
    width = len(str(len(puzzle.rooms)))
    return "\n".join(
        " ".join(("#" if solution is not None and solution[r][c] == "#" else _room_label(puzzle, r, c)).rjust(width)
                 for c in range(puzzle.cols)) for r in range(puzzle.rows))


def puzzle_json(puzzle: NorinoriPuzzle) -> dict[str, Any]:
    """``{"rooms": rows of room ids 1..n}``."""
    return {"rooms": rooms_layer.rooms_json(puzzle.rows, puzzle.cols, puzzle.rooms)}


def puzzle_from_json(record: Record, value: object) -> NorinoriPuzzle:
    """The inverse of :func:`puzzle_json`, written out as the text and parsed, so every check of
    :func:`parse` applies."""
    grid = value.get("rooms") if isinstance(value, dict) else None
    if not (isinstance(grid, list) and grid and all(isinstance(row, list) and row for row in grid)
            and all(type(v) is int or (isinstance(v, str) and v.isalnum()) for row in grid for v in row)):
        raise record.error("not {\"rooms\": rows of room ids}")
    lines = [(record.line, " ".join(str(v) for v in row)) for row in grid]
    return parse(record.part(record.line, lines, record.name))


solution_from_json = shading_rows_from_json


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid: a variable a cell
    and the room counters' auxiliaries, about 6 clauses a cell for the neighbour rule and 4 to 6
    for the room counts (the figures behind the bounds are in encodings/norinori.md)."""
    cells = rows * cols
    return 3 * cells, 12 * cells


# -- formats ------------------------------------------------------------------------------------
def _from_url(parts: puzzlink.Parts) -> NorinoriPuzzle:
    found = parts["rooms"]
    small = small_room(found)
    if small is not None:
        raise parts.error("rooms", small, _SMALL.format(cell_name(*found[small][0])))
    return puzzle_of(found, parts.rows, parts.cols, "", parts.source)


#: puz.link ``norinori`` (pzprjs ``lits.js``: ``decodePzpr`` is ``decodeBorder``): the border body.
PUZZLINK = puzzlink.Codec(pids=("norinori",), body=(puzzlink.ROOMS,), read=_from_url,
                          write=lambda puzzle: {"rooms": puzzle.rooms})


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[NorinoriPuzzle, Solution | None]:
    """The rooms, and the answer when a cell of it is shaded."""
    found = pzprv3.rooms_of(grids)
    small = small_room(found)
    if small is not None:
        r, c = found[small][0]
        raise grids.error(pzprv3.ROOM_GRID.name, r, c, _SMALL.format(cell_name(r, c)))
    return puzzle_of(found, grids.rows, grids.cols, "", grids.source), shading.pzprv3_solution(grids)


def _to_pzprv3(puzzle: NorinoriPuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
    """The rooms; the answer ``#`` shaded and ``+`` unshaded (every cell decided), ``.`` without one."""
    return {**pzprv3.room_grids(puzzle.rows, puzzle.cols, puzzle.rooms),
            "answer": shading.pzprv3_answer(puzzle, solution)}


#: pzprv3 ``norinori`` (``FileIO``: ``decodeAreaRoom``, ``decodeCellAns``): rooms, then the answer.
PZPRV3 = pzprv3.Codec(
    pids=("norinori",),
    sections=(*pzprv3.room_sections(), pzprv3.Section("answer", pzprv3.SHADING, answer=True)),
    read=_from_pzprv3, write=_to_pzprv3)


def _puzzlekit_rows(puzzle: NorinoriPuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's layout: an empty clue grid (``-``), the room grid, and ``x``/``-`` answers."""
    ids = rooms_layer.room_ids(puzzle.rows, puzzle.cols, puzzle.rooms)
    problem = [["-"] * puzzle.cols for _ in range(puzzle.rows)] + [[str(k + 1) for k in row] for row in ids]
    answer = None if solution is None else [["x" if ch == "#" else "-" for ch in row] for row in solution]
    return problem, answer


#: The puzzlekit dataset's Norinori grids (``assets/data/Norinori``): an empty clue grid (``-``
#: everywhere), then the room ids; solutions ``x`` shaded, ``-`` unshaded.
PUZZLEKIT = puzzlekit.Codec(
    "Norinori",
    problem=puzzlekit.WithRooms(puzzlekit.Tokens({"-": "-"}, strict=True), drop_clues=True),
    solution=puzzlekit.Tokens({"x": "#", "-": "."}, strict=True),
    write=_puzzlekit_rows,
)


# -- generation ---------------------------------------------------------------------------------
from ...errors import SatgridError  # noqa: E402
from ...session import Session  # noqa: E402


def _dominoes(grid: Geometry, rng: random.Random) -> list[tuple[Cell, Cell]]:
    """A maximal random packing of dominoes no two of which touch side by side: the pairs of
    side neighbours in random order, each taken when neither cell is shaded or beside a shaded
    cell."""
    pairs = list(grid.adjacent_pairs())
    rng.shuffle(pairs)
    shaded: set[Cell] = set()
    out = []
    for p, q in pairs:
        near = {p, q, *grid.neighbours(p), *grid.neighbours(q)}
        if not near & shaded:
            shaded.update((p, q))
            out.append((p, q))
    return out


def _unique(grid: Geometry, members: Sequence[Collection[Cell]], counts: Sequence[int],
            answer: set[Cell]) -> bool:
    """Is ``answer`` the only shading in which each of the rooms ``members`` holds its count of
    shaded cells and every shaded cell touches exactly one other (Norinori's rules with any
    count a room)?"""
    m = Model(grid)
    shaded = rules(m, puzzle_of(tuple(map(tuple, members)), grid.rows, grid.cols), counts)
    encoding = m.build()
    session = Session(encoding)
    try:
        session.add([[-x if p in answer else x for p, x in shaded.items()]])
        return session.solve([], need_model=False).status == "unsat"
    finally:
        session.close()


def _merged(grid: Geometry, pairs: Sequence[tuple[Cell, Cell]], rng: random.Random) -> Rooms | None:
    """Rooms of two shaded cells each that make the dominoes ``pairs`` the only solution, merged
    from the dominoes and single cells (:func:`SAMPLE`); None when a single cell can merge with
    none of its neighbouring rooms."""
    shaded = {p for pair in pairs for p in pair}
    starts = [set(pair) for pair in pairs] + [{p} for p in grid.cells if p not in shaded]
    owner = {p: k for k, room in enumerate(starts) for p in room}
    members: dict[int, set[Cell]] = dict(enumerate(starts))
    counts = {k: len(room & shaded) for k, room in enumerate(starts)}
    loose: set[int] = set()  # single cells of a dissolved empty room: they join full rooms only
    blocked: set[int] = set()
    fresh = len(starts)
    while True:
        short = sorted(k for k in members if counts[k] < PER_ROOM and k not in blocked)
        if not short:
            break
        near = {k: {owner[q] for p in members[k] for q in grid.neighbours(p)} - {k} for k in short}
        fewest = min(len(rooms) for rooms in near.values())
        a = rng.choice([k for k in short if len(near[k]) == fewest])  # the most hemmed in first
        around = list(near[a])
        rng.shuffle(around)
        # empty rooms first, smallest first, up to EMPTY cells together; then the full rooms
        for b in sorted(around, key=lambda k: (counts[k] > 0, len(members[k]))):
            if counts[a] + counts[b] > PER_ROOM or (counts[a] + counts[b] == 0 and (
                    a in loose or b in loose or len(members[a]) + len(members[b]) > EMPTY)):
                continue
            keys = [k for k in members if k not in (a, b)]
            if _unique(grid, [members[k] for k in keys] + [members[a] | members[b]],
                       [counts[k] for k in keys] + [counts[a] + counts[b]], shaded):
                members[a] |= members.pop(b)
                counts[a] += counts.pop(b)
                for p in members[a]:
                    owner[p] = a
                loose.discard(b)
                blocked.clear()
                break
        else:
            if len(members[a]) == 1:
                blocked.add(a)
                continue
            for p in members.pop(a):  # an empty room no room takes: its cells try one by one
                members[fresh], counts[fresh], owner[p] = {p}, 0, fresh
                loose.add(fresh)
                fresh += 1
            del counts[a]
            loose.discard(a)
    if any(count != PER_ROOM for count in counts.values()):
        return None
    return rooms_layer.canonical(members.values())


def SAMPLE(rows: int, cols: int, rng: random.Random) -> NorinoriPuzzle:
    """A Norinori with one solution, for the generic generator (:mod:`satgrid.generators.generic`,
    which keeps it only when it is unique; with no clues it removes nothing).

    Dominoes first, then rooms merged around them (:func:`_merged`): a maximal random packing of
    dominoes that do not touch (:func:`_dominoes`) is the answer. Each domino starts as a room,
    every other cell as a room of its own that must hold no shaded cell: that puzzle (Norinori
    with any count a room) has the answer as its only solution. Then, again and again, a room
    without shaded cells (one with the fewest neighbouring rooms) merges with a neighbouring
    room (empty rooms first while the two have at most :data:`EMPTY` cells, smallest first, then
    the domino rooms, smallest first) when the answer stays the only solution, checked by one SAT
    call with the answer blocked. A merge only relaxes the rules, as removing a clue does, so
    every step keeps the puzzle unique. An empty room of several cells that no room can take
    falls apart into single cells, which then join rooms with dominoes one by one; a single cell
    no room can take is passed over until another merge succeeds. It ends when every room holds
    two shaded cells: a Norinori whose only solution is the answer, each domino inside one room.
    A draw that strands a cell starts again from new dominoes (at most :data:`DRAWS` times)."""
    if rows * cols < 2:
        raise SatgridError(f"a {rows}x{cols} Norinori has no room for a domino")
    if (rows, cols) == (2, 2) or (min(rows, cols) == 1 and max(rows, cols) < 5):
        # a room of 2 cells is its domino and touches the next room's; a longer room's domino can
        # slide; 2x2: every split leaves a room of 1 or 3 cells, or dominoes touching
        raise SatgridError(f"a {rows}x{cols} Norinori is too small: no room layout has one solution")
    grid = Geometry.of(rows, cols)
    for _ in range(DRAWS):
        found = _merged(grid, _dominoes(grid, rng), rng)
        if found is not None:
            return puzzle_of(found, rows, cols)
    raise SatgridError(f"no unique {rows}x{cols} Norinori found in {DRAWS} draws of dominoes")


#: Draws of dominoes :func:`SAMPLE` tries before giving up.
DRAWS = 40
#: The most cells two rooms without shaded cells may have when they merge with each other
#: (encodings/norinori.md: smaller caps strand more cells, larger ones leave more rooms a bare
#: domino).
EMPTY = 8


# -- drawing and hints --------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)


def DRAW(puzzle: NorinoriPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The cells, a solution's shaded cells (grey, so the room borders show on them, as puzzle
    books print them), the bold room borders and the outline."""
    out = svg.cells(puzzle, marks)
    if solution is not None:
        out += svg.shaded([(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                           if solution[r][c] == "#"], marks, svg.GREY)
    return [*out, *svg.rooms(puzzle), *svg.border(puzzle)]


STATE = shading.state_format(_room_label, "room id", clue="room")


# -- repair -------------------------------------------------------------------------------------
#: No clue to add: the rooms are the puzzle (``satgrid repair`` says so).
CANDIDATES = None
