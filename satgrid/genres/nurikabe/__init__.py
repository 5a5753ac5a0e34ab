"""Nurikabe: shade cells so that the white islands match their numbers and the black wall is one.

Rules (R. Hui, J wiki essay "Essays/Nurikabe"): cells are black or white; numbered cells are
white. Each white region ("island") is 4-connected, holds exactly one number and has exactly that
many cells; a ``?`` number is an island of unknown size. All black cells form one 4-connected
region. No 2x2 block is all black.

Encoding (:func:`rules`, on the model builder; clause counts, proofs and measurements in
``encodings/nurikabe.md``):

* ``("black", r, c)`` per cell: the primary variables (the builder's layer ``black``).
* Numbered cells are white; no 2x2 block is all black.
* The islands: the core rule :meth:`~satgrid.model.Model.islands_with_one_seed` with the numbers as
  seeds (:mod:`satgrid.islands`: each number's reach, labels on it, cells touching two numbers
  black, the sizes as clues, the literal ``all`` = every size switched on, and the global rule
  "every white region holds exactly one number", lazy cuts or eager island numbers). With
  ``one_wall``, since the black cells form one wall: no island touches itself diagonally, and
  islands whose contacts close a cycle are cut (barrier cuts).
* All black cells are connected: the core's connected-subgraph rule over the black literals, with
  anchors (a cell touching two numbers; a black cell beside each switched-on island of at most
  :data:`SMALL_ISLAND` cells) that make its cuts one-sided.
* Redundant strengthening, behind ``all``: with no ``?`` and two black cells or more, a black cell
  has a black neighbour.

Clue switches: a number in Nurikabe cannot vanish (its cell stays an island seed), so switching a
clue "off" turns it into ``?``: the island keeps its cell and its identity, only its size (and the
reach that follows from the size) is dropped. This is an exact relaxation: the audit's "redundant"
means "the puzzle with this number replaced by ``?`` still has one solution". ``?`` numbers of the
puzzle itself are not clues in this sense (``clues()`` lists sized numbers only).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import ClassVar, Union

from ... import grid as geometry
from .checker import check_nurikabe
from ...cnf import exactly, guarded
from ...encoding import Encoding
from ...islands import SIZELESS, crowded
from ...model import Model, read_shading
from ...puzzle import GridPuzzle, Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from ...formats import puzzlekit, puzzlink, pzprv3

NAME = "nurikabe"
SUMMARY = "Nurikabe: numbered white islands of their size, one connected black wall, no 2x2 black"
EXAMPLES = "nurikabe.txt"

UNKNOWN = "?"
#: Islands up to this size anchor the black wall's cuts (see rules).
SMALL_ISLAND = 4
#: The name of the black wall's rule (a generator carries its cuts from one layout to the next).
WALL = "the black cells form one wall"
#: A wall of at most 1/SMALL_WALL of the grid (the cells the islands leave, every size on) is
#: counted exactly (encodings/nurikabe.md: a count of bigger walls slows the search down).
SMALL_WALL = 10
Cell = tuple[int, int]
Number = Union[int, str]  # a size, or "?"
Grid = tuple[tuple[Union[Number, None], ...], ...]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class NurikabePuzzle(GridPuzzle):
    """Numbers of a Nurikabe grid: an int size, ``"?"`` (size unknown) or None (empty cell)."""

    genre: ClassVar[str] = NAME

    def clues(self) -> dict[Cell, int]:
        """The sized numbers: the clues that queries switch on and off."""
        return {p: v for p, v in self.numbers().items() if v != UNKNOWN}

    def with_clues(self, clues: dict[Cell, int]) -> "NurikabePuzzle":
        """This puzzle keeping the sizes in ``clues``; every other number becomes ``?``."""
        grid = tuple(
            tuple(None if v is None else clues.get((r, c), UNKNOWN) for c, v in enumerate(row))
            for r, row in enumerate(self.grid)
        )
        return NurikabePuzzle(grid, self.name, self.source)


# -- parsing ------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
_EMPTY = {".", "0", "_", "-"}


def parse(record: Record) -> NurikabePuzzle:
    """Rows of whitespace-separated tokens: ``.`` or ``0`` empty, a positive size, ``?``."""
    rows = record.token_rows()
    if not rows:
        raise record.error("no Nurikabe grid found")
    width = len(rows[0][1])
    for line, tokens in rows:
        if len(tokens) != width:
            raise record.error(
                f"row has {len(tokens)} cells, the first row has {width} (rows must be equally long)", line
            )
    height = len(rows)
    for key, actual in (("rows", height), ("cols", width)):
        if key in record.meta:
            declared = record.meta[key]
            if number(declared) != actual:
                raise record.error(f"header says {key}: {declared}, the grid has {actual}")
    area = height * width
    grid = []
    for line, tokens in rows:
        cells: list[Number | None] = []
        for tok, col in tokens:
            if tok in _EMPTY:
                cells.append(None)
            elif tok == UNKNOWN:
                cells.append(UNKNOWN)
            elif (value := number(tok)) is not None:
                if value == 0:
                    raise record.error(f"number {tok} is no island size ('.' or '0' is an empty cell)", line, col)
                if value > area:
                    raise record.error(
                        f"number {tok} is bigger than the {height}x{width} grid ({area} cells)", line, col
                    )
                cells.append(value)
            else:
                raise record.error(
                    f"token {tok!r} is not a number, '?' or an empty cell ('.' or '0')", line, col
                )
        grid.append(tuple(cells))
    return NurikabePuzzle(tuple(grid), record.name, Source(record.source, record.line))


def parse_solution(record: Record, puzzle: NurikabePuzzle) -> Solution | None:
    """The solution in a block's ``solution:`` section (None when it has none): rows of ``#``
    (black) and ``.`` or ``+`` (white), one character a cell, or whitespace-separated tokens as
    :func:`render` prints them, where a numbered cell shows its number (or ``?``)."""
    lines = [(n, t) for n, t in record.solution_lines if t.strip()]
    if not lines:
        return None
    if len(lines) != puzzle.rows:
        raise record.error(f"the solution has {len(lines)} rows, the grid {puzzle.rows}", lines[0][0])
    numbers = puzzle.numbers()
    rows = []
    for r, (line, text) in enumerate(lines):
        if len(text.split()) > 1:
            tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            tokens = [(ch, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        if len(tokens) != puzzle.cols:
            raise record.error(f"solution row has {len(tokens)} cells, the grid {puzzle.cols}", line)
        row = []
        for c, (tok, col) in enumerate(tokens):
            if tok == "#":
                row.append("#")
            elif tok in (".", "+"):
                row.append(".")
            elif tok == str(numbers.get((r, c))):
                row.append(".")
            else:
                raise record.error(f"{tok!r} is not a solution cell for {cell_name(r, c)}: use '#' "
                                   "(black), '.' (white) or the cell's number", line, col)
        rows.append("".join(row))
    return tuple(rows)


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: NurikabePuzzle) -> tuple:
    """The grid itself: the encoding depends on where the numbers are and on their sizes (the
    reach), so only puzzles with the same grid share one (a later audit reuses the solve's cuts)."""
    return (NAME, puzzle.grid)


#: A number removed, on the encoding built with it: its seed without size, every other size on
#: (:meth:`satgrid.islands.SeededIslands.sizeless`; the registry's ``REMOVED_CLUE``).
REMOVED_CLUE = SIZELESS


def CLUE_READS(puzzle: NurikabePuzzle, solution: Solution, key: Cell) -> list[Cell]:
    """The cells that decide the number at ``key`` in ``solution``: its island and the cells
    around it. A solution that shades them alike has that island at ``key``, so it obeys the
    number (the registry's ``CLUE_READS``)."""
    grid = geometry.Grid.of(puzzle.rows, puzzle.cols)
    island, rim, stack = {key}, set(), [key]
    while stack:
        for q in grid.neighbours(stack.pop()):
            if q in island or q in rim:
                continue
            if solution[q[0]][q[1]] == "#":
                rim.add(q)
            else:
                island.add(q)
                stack.append(q)
    return sorted(island) + sorted(rim)


@dataclass(frozen=True)
class Variant:
    """Encoding choices, measured in ``bench/bench_nurikabe.py`` (defaults = the fastest).

    ``eager_from``: islands of this size and up stay connected inside their reach by the core's
    parent pointers rather than by the local "a labelled cell has a labelled neighbour" clauses
    (the lazy cuts do the rest). ``black_degree``: with every size on and no ``?``, no piece of up
    to this many black cells is closed off (1: a black cell has a black neighbour; 0: off).
    ``barriers``: the islands' lazy cuts know that the black cells form one wall (barrier cuts,
    :class:`satgrid.islands.Islands`).
    """

    eager_from: int = 10**9
    black_degree: int = 2
    barriers: bool = True


#: A generator's layout: per island, its size and the cells its number may take.
Places = tuple[tuple[int, tuple[Cell, ...]], ...]


def rules(m: Model, puzzle: NurikabePuzzle, variant: Variant = Variant(), places: Places = ()) -> None:
    """The rulebook (module doc) stated with the model builder; each rule's lowering is in
    ``encodings/nurikabe.md``, the islands' in :mod:`satgrid.islands`.

    ``places`` (a generator's layout, :func:`encode_places`): beside the puzzle's numbers, one
    number per entry, of its size, on one of its cells (the islands rule's placed islands: the
    clue ``(cell, size)`` is the literal "the number is here", a place not chosen is an empty
    cell)."""
    black = m.cells("black")
    white = {p: -x for p, x in black.items()}
    numbers = puzzle.numbers()
    m.require("numbered cells are white", ([white[p]] for p in numbers))
    # The islands rule below states this too; stated before the 2x2 blocks, as the encoding always
    # had it, the solver loads those blocks simplified and searches as before (same puzzles from a
    # seed; encodings/nurikabe.md, "Speed").
    m.require("a cell touching two numbers is black",
              ([black[p]] for p in sorted(crowded(m.grid, numbers), key=m.grid.index)))
    m.no_2x2("no 2x2 block is all black", black)
    islands = m.islands_with_one_seed(
        "each island holds one number, and has its size", white,
        {p: None if v == UNKNOWN else v for p, v in numbers.items()}, eager_from=variant.eager_from,
        places=places, one_wall=variant.barriers)
    m.clue(islands.size)

    wall = {p: x for p, x in black.items() if p not in numbers}
    sizes = [v for v in numbers.values() if v != UNKNOWN]
    left = len(black) - sum(sizes) - sum(n for n, _ in places)
    if variant.black_degree and len(sizes) == len(numbers) and left >= 2:
        m.no_closed_pieces("with every size on, a black cell or pair has a black neighbour", wall,
                           min(left - 1, variant.black_degree), islands.all)
    if len(sizes) == len(numbers) and 0 <= left * SMALL_WALL <= len(black):
        m.require("with every size on, a small wall has the cells the islands leave",
                  guarded(exactly(list(wall.values()), left, m.pool), islands.all))
    # Anchors for the wall's cuts (a black component that misses an anchor cannot be the whole
    # wall): a cell touching two numbers is black; a switched-on island smaller than the grid has
    # a black cell next to it, inside its reach or on the reach's rim.
    true = m.true()
    anchors = [(true, [p]) for p in islands.crowded]
    anchors += [(islands.selectors[p], islands.rim(p)) for p, n in numbers.items()
                if n != UNKNOWN and n <= SMALL_ISLAND and n < len(black)]
    anchors += [(true, islands.rim(cells[0])) for n, cells in places if n <= SMALL_ISLAND and n < len(black)]
    m.connected(WALL, wall, anchors=anchors)


def encode(puzzle: NurikabePuzzle, variant: Variant = Variant()) -> Encoding:
    m = Model(geometry.Grid.of(puzzle.rows, puzzle.cols))
    rules(m, puzzle, variant)
    return m.build()


def encode_places(rows: int, cols: int, places: Places, variant: Variant = Variant()) -> Encoding:
    """One encoding for every placement of a layout's numbers (``places``, see :func:`rules`):
    with the clues of a placement (``{cell: size}``, one cell of each entry) assumed, every
    other place is an empty cell, and the solutions are exactly those of that puzzle (a
    generator moves numbers on one solver; tests/test_placed_islands.py)."""
    m = Model(geometry.Grid.of(rows, cols))
    rules(m, NurikabePuzzle(tuple((None,) * cols for _ in range(rows))), variant, places)
    return m.build()


def decode(puzzle: NurikabePuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "black", value, puzzle.rows, puzzle.cols)


def check(puzzle: NurikabePuzzle, solution: Solution) -> list[str]:
    return check_nurikabe(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)


# -- output -------------------------------------------------------------------------------------
def render(puzzle: NurikabePuzzle, solution: Solution | None = None) -> str:
    """The grid: numbers (or ``?``), ``.`` white, ``#`` black; columns line up for big numbers."""
    width = max([1, *(len(str(v)) for v in puzzle.numbers().values())])
    lines = []
    for r, row in enumerate(puzzle.grid):
        tokens = []
        for c, v in enumerate(row):
            if v is not None:
                tokens.append(str(v))
            elif solution is not None and solution[r][c] == "#":
                tokens.append("#")
            else:
                tokens.append(".")
        lines.append(" ".join(t.rjust(width) for t in tokens))
    return "\n".join(lines)


def puzzle_json(puzzle: NurikabePuzzle) -> list[list[Number]]:
    """Rows of numbers: 0 empty, a size, or ``"?"``."""
    return [[0 if v is None else v for v in row] for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> NurikabePuzzle:
    """The inverse of :func:`puzzle_json`: rows of 0 (empty), sizes and ``"?"``, written out as
    text rows and parsed, so every check of :func:`parse` applies."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise record.error("not a list of rows of numbers")
    lines = []
    for r, row in enumerate(value, 1):
        if not all((type(v) is int and v >= 0) or v == UNKNOWN for v in row):
            raise record.error(f"row {r} holds something other than 0, a size or {UNKNOWN!r}")
        lines.append((record.line, " ".join("." if v == 0 else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


solution_from_json = shading_rows_from_json


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid, from the grid alone:
    the size labels depend on the numbers (each clue labels the cells it reaches), so this takes
    the per-cell figures of densely numbered puzzles, an upper estimate for most; the eager
    connectivity rules add parent pointers and ranks, whose clauses per cell grow with the rank's
    bits (log2 of the cells). The figures behind the constants are in encodings/nurikabe.md."""
    cells = rows * cols
    variables, clauses = 100 * cells, 460 * cells
    if connectivity == "eager":
        bits = math.log2(max(cells, 2))
        variables += int(cells * max(10.0, 12 * bits - 20))
        clauses += int(cells * max(30.0, 30 * bits - 45))
    return variables, clauses


# -- formats ------------------------------------------------------------------------------------
def _from_url(cells: puzzlink.Cells) -> NurikabePuzzle:
    return NurikabePuzzle(cells.numbers(1, cells.rows * cells.cols), "", cells.source)


PUZZLINK = puzzlink.Codec(pids=("nurikabe",), body=puzzlink.NUMBERS, read=_from_url,
                          write=lambda puzzle: puzzle.grid)

#: pzprjs's answer marks in the one grid of a Nurikabe file: ``#`` shaded, ``+`` a dot (unshaded).
_MARKS = {"#": "#", "+": "+"}


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[NurikabePuzzle, Solution | None]:
    """One grid of numbers and marks (pzprjs's ``decodeCellQnumAns``); it holds an answer when a
    cell is shaded."""
    cells = grids["grid"]
    puzzle = NurikabePuzzle(tuple(tuple(None if v in _MARKS else v for v in row) for row in cells), "",
                            grids.source)
    if not any(v == "#" for row in cells for v in row):
        return puzzle, None
    return puzzle, tuple("".join("#" if v == "#" else "." for v in row) for row in cells)


def _to_pzprv3(puzzle: NurikabePuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
    return {"grid": [[v if v is not None or solution is None else "#" if solution[r][c] == "#" else "+"
                      for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]}


PZPRV3 = pzprv3.Codec(
    pids=("nurikabe",),
    sections=(pzprv3.Section("grid", pzprv3.clues(1, lambda rows, cols: rows * cols, _MARKS)),),
    read=_from_pzprv3, write=_to_pzprv3)


# -- drawing and hints ---------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...errors import ParseError  # noqa: E402
from ...genre_options import GENERATE, Option, whole_numbers  # noqa: E402
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: NurikabePuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, numbers (``?`` as is), shaded cells black, unshaded solution cells dotted."""
    numbers = puzzle.numbers()
    out = svg.cells(puzzle, marks, numbers)
    if solution is not None:
        cells = geometry.Grid.of(puzzle.rows, puzzle.cols).cells
        out += svg.shaded([p for p in cells if solution[p[0]][p[1]] == "#"], marks)
        out += svg.dotted([p for p in cells if solution[p[0]][p[1]] != "#" and p not in numbers])
    return [*out, *svg.border(puzzle), *svg.givens({k: str(v) for k, v in numbers.items()})]


def _read_state(puzzle: NurikabePuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid, ``#`` black, ``.`` (or ``+``) white, ``?`` (or ``_``)
    undecided, numbers as in the puzzle."""
    rows = [(n, t) for n, t in state_lines(text) if t.strip()]
    if len(rows) != puzzle.rows:
        raise ParseError(source, None, f"the state has {len(rows)} rows, the puzzle {puzzle.rows}")
    numbers = puzzle.numbers()
    state = {}
    for r, (n, line) in enumerate(rows):
        tokens = line.split() if any(ch.isspace() for ch in line.strip()) else list(line.strip())
        if len(tokens) != puzzle.cols:
            raise ParseError(source, n, f"row has {len(tokens)} cells, the puzzle {puzzle.cols}")
        for c, tok in enumerate(tokens):
            if tok == "#":
                state[("black", r, c)] = True
            elif (r, c) in numbers or tok in "?_":
                continue  # a numbered cell is white anyway; '?' and '_' are undecided
            elif tok in (".", "+"):
                state[("black", r, c)] = False
            else:
                raise ParseError(source, n, f"{tok!r} is not a cell mark: use '#' (black), '.' "
                                            "(white), '?' (undecided) or the cell's number")
    return state


def _describe(puzzle: NurikabePuzzle, key, value: bool) -> str:
    _, r, c = key
    return f"{cell_name(r, c)} is {'black' if value else 'white'}"


STATE = StateFormat(_read_state, _describe, lambda key, value: True,
                    "the grid: '#' black, '.' (or '+') white, '?' undecided, numbers as in the puzzle",
                    lambda p: {("black", *cell): False for cell in p.numbers()})


OPTIONS = (
    Option("--islands", "Nurikabe: the island sizes of the random solution [default: 1-6].",
           GENERATE, whole_numbers("-", 2, "2-5"), "LO-HI"),
    Option("--unknown-sizes", "Nurikabe: sizes become '?' while the puzzle stays unique (the "
           "'?'-minimal form) [default: every island has its size].", GENERATE, switch=True),
)


# -- puzzlekit ------------------------------------------------------------------------------------
def _puzzlekit_rows(puzzle: NurikabePuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's tokens: ``-`` empty or a number; ``x`` shaded, ``-`` unshaded."""
    problem = [["-" if v is None else str(v) for v in row] for row in puzzle.grid]
    answer = None if solution is None else [["x" if ch == "#" else "-" for ch in row] for row in solution]
    return problem, answer


#: The puzzlekit dataset's Nurikabe grids (``assets/data/Nurikabe``): problem ``-`` empty or a
#: number (which :func:`parse` reads as they are), solution ``x`` shaded and ``-`` unshaded.
PUZZLEKIT = puzzlekit.Codec(
    "Nurikabe",
    problem=puzzlekit.Tokens({"-": "."}),
    solution=puzzlekit.Tokens({"x": "#", "-": "."}, strict=True),
    solver="nurikabe",
    write=_puzzlekit_rows,
)


# -- golden samples -----------------------------------------------------------------------------
#: (the genre's text, the status of ``solve --unique``, the solution or None): n1 of
#: satgrid/data/nurikabe.txt with R. Hui's published solution, and two tiny grids checked
#: against brute force; run through every path by tests/test_genres.py.
SAMPLES = (
    (". 1 . . .\n. . . . 2\n. . . . .\n3 . . . .\n. . . 2 .\n", "unique",
     ("#.###", "###..", "#.###", "..#.#", "###.#")),
    ("2 .\n. .\n", "multiple", None),  # the island runs right or down
    ("1 1\n", "unsatisfiable", None),  # two numbers side by side share an island
)


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: NurikabePuzzle, solution: Solution) -> dict[Cell, int]:
    """The sizes a repair may add: each ``?`` number's island size. An island holds exactly one
    number, so in a solution every island already has one: a size can only replace a ``?``."""
    near = geometry.Grid.of(puzzle.rows, puzzle.cols).adjacency
    out = {}
    for p, v in puzzle.numbers().items():
        if v == UNKNOWN:
            island, todo = {p}, [p]
            while todo:
                for q in near[todo.pop()]:
                    if solution[q[0]][q[1]] != "#" and q not in island:
                        island.add(q)
                        todo.append(q)
            out[p] = len(island)
    return out
