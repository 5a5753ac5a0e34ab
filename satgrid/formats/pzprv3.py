"""pzprv3 files: puzz.link's save format, with the answer (pzprjs ``src/puzzle/FileData.js`` and
each variety's ``FileIO``), read and written through the genres' codecs.

Lines: ``pzprv3`` (or ``pzprv3.1``), the pid, the size (rows then columns, or one line for a
square grid), then grids of space-separated tokens, one grid row a line (pzprjs ends each token
with a space). Lines after the grids (pzprjs's ``history:``/``info:`` records) are ignored.
Several files may be concatenated: each ``pzprv3`` line starts a puzzle.

A genre with a pzprv3 form declares ``PZPRV3 = pzprv3.Codec(...)``: its pids, and its grids in
file order (:class:`Section`: a name, a shape relative to the puzzle's, a token reader, whether it
belongs to the answer), with two functions between the read grids and the puzzle with its
answer. The token readers here are the building blocks: :func:`clues` (``.`` empty, ``-`` a
``?`` clue, numbers, marks), :data:`EDGES` (``1`` a line, ``-1`` a cross, ``0`` nothing),
:func:`answers` (numbers, pencil marks read as empty) and :data:`IGNORED`; a genre with rooms
puts :func:`room_sections` (pzprjs's ``decodeAreaRoom``: the room count, then the room-id grid)
among its sections and reads them with :func:`rooms_of`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..errors import ParseError, UnsupportedGenre
from ..puzzle import Source
from ..reader import number
from .puzzlink import MAX_SIDE, any_size, never, by_pid, check_sides

Line = tuple[int, str]
#: ``read(token, rows, cols) -> value``; a ValueError's message becomes the error at the token.
TokenReader = Callable[[str, int, int], Any]


@dataclass(frozen=True)
class Loaded:
    """A puzzle and the answer the file holds (None when it holds none)."""

    puzzle: Any
    solution: Any = None


# -- token readers --------------------------------------------------------------------------------
def clues(low: int | Callable[[int, int], int], high: int | Callable[[int, int], int],
          marks: Mapping[str, Any] | None = None) -> TokenReader:
    """pzprjs's ``decodeCellQnum`` (and ``decodeCellQnumAns`` with ``marks``): ``.`` None, ``-``
    ``"?"``, a number ``low..high`` (ints, or functions of ``(rows, cols)``), or ``marks[token]``
    (``{"#": "#", "+": "+"}`` for shaded and dotted cells)."""
    extra = dict(marks or {})

    def read(word: str, rows: int, cols: int) -> Any:
        if word == ".":
            return None
        if word == "-":
            return "?"
        if word in extra:
            return extra[word]
        value = number(word)
        if value is None:
            raise ValueError(f"{word!r} is not a clue ('.', '-' or a number)")
        lo = low(rows, cols) if callable(low) else low
        hi = high(rows, cols) if callable(high) else high
        if not lo <= value <= hi:
            raise ValueError(f"clue {word} is out of range {lo}..{hi}")
        return value

    return read


def answers(low: int | Callable[[int, int], int], high: int | Callable[[int, int], int]) -> TokenReader:
    """pzprjs's ``decodeCellAnumsub``: a number ``low..high``, or 0 for an empty cell (``.``, the
    pencil marks ``+ - = %``, a candidate list ``[1,2,,]`` after any token)."""
    def read(word: str, rows: int, cols: int) -> int:
        word = word.split("[", 1)[0]
        value = number(word)
        if value is None:
            if word in (".", "+", "-", "=", "%", ""):
                return 0
            raise ValueError(f"{word!r} is not an answer (a number or '.')")
        lo = low(rows, cols) if callable(low) else low
        hi = high(rows, cols) if callable(high) else high
        if not lo <= value <= hi:
            raise ValueError(f"answer {word} is out of range {lo}..{hi}")
        return value

    return read


def _edge(word: str, rows: int, cols: int) -> int:
    crossed = word.startswith("-")
    value = number(word[1:] if crossed else word)
    if value is None:
        raise ValueError(f"{word!r} is not an edge (1 line, -1 cross, 0 nothing)")
    return 1 if value > 0 and not crossed else 0


def _ignored(word: str, rows: int, cols: int) -> None:
    return None


def _shading(word: str, rows: int, cols: int) -> str:
    if word not in ("#", "+", "."):
        raise ValueError(f"{word!r} is not an answer cell ('#' shaded, '+' or '.' unshaded)")
    return "#" if word == "#" else "."


#: pzprjs's ``decodeBorderLine``: ``1`` (or more) a line -> 1; ``-1`` a cross and ``0`` -> 0.
EDGES: TokenReader = _edge
#: pzprjs's ``decodeCellAns``: ``#`` shaded -> ``#``; ``+`` a dot (unshaded) and ``.``
#: (undecided) -> ``.``.
SHADING: TokenReader = _shading
#: Any token, read as None (grids the answer check does not need, such as background colours).
IGNORED: TokenReader = _ignored


def token(value: Any) -> str:
    """The token written for a value: None ``.``, ``"?"`` ``-``, else the value itself."""
    return "." if value is None else "-" if value == "?" else str(value)


# -- codecs ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Section:
    """One grid of a pzprv3 file.

    * ``name``: as errors name it (``"clue grid"``, ``"vertical edges"``);
    * ``read``: the token reader (:func:`clues`, :func:`answers`, :data:`EDGES`, ...);
    * ``shape``: ``(extra rows, extra columns)`` over the puzzle's size: cells ``(0, 0)``, the
      vertical edges of the dot lattice ``(0, 1)``, its horizontal edges ``(1, 0)``, the borders
      between cells ``(0, -1)`` and ``(-1, 0)`` (pzprjs's ``decodeBorderLine`` reads the vertical
      ones first; a grid without columns is a row of empty lines, one without rows no line);
    * ``answer``: the grid belongs to the answer; a file may end before the first answer grid
      (a puzzle without its answer), not inside the answer;
    * ``version``: only files of this version hold the grid (``"pzprv3.1"``), else every file;
    * ``line``: not a grid but one line of one token, whatever the puzzle's size (pzprjs's
      ``readLine``/``writeLine`` of a number: a room count, a count the puzzle states), written
      without a trailing space; its value is ``[[value]]``.
    """

    name: str
    read: TokenReader
    shape: tuple[int, int] = (0, 0)
    answer: bool = False
    version: str | None = None
    line: bool = False


@dataclass(frozen=True)
class Grids:
    """The grids read from one file, handed to :attr:`Codec.read`: ``grids[name]`` is the grid of
    values of that :class:`Section` (absent when the file holds no answer); :meth:`error` names
    the line and column of a token."""

    rows: int
    cols: int
    version: str
    source: Source
    values: dict[str, list[list[Any]]]
    places: dict[str, list[list[tuple[int, int]]]] = field(repr=False)

    def __getitem__(self, name: str) -> list[list[Any]]:
        return self.values[name]

    def __contains__(self, name: str) -> bool:
        return name in self.values

    def error(self, name: str, r: int, c: int, message: str) -> ParseError:
        """A ParseError at the token of cell ``(r, c)`` of grid ``name``."""
        line, column = self.places[name][r][c]
        return ParseError(self.source.file, line, message, column)


@dataclass(frozen=True)
class Codec:
    """A genre's pzprv3 form, one value for both ways (the genre's ``PZPRV3`` part).

    * ``pids``: the puzzle types read as this genre; the first is written.
    * ``sections``: the grids after the size lines, in file order (:class:`Section`).
    * ``read(grids) -> (puzzle, solution or None)``: from the grids read (:class:`Grids`);
      errors through :meth:`Grids.error`.
    * ``write(puzzle, solution or None) -> {section name: rows of values}``: every section of
      the written ``version``; values become tokens by :func:`token`. Without a solution the
      answer grids are written empty, as pzprjs writes an unsolved puzzle.
    * ``version``: the header written (``"pzprv3"``; pzprjs writes some genres as ``"pzprv3.1"``).
    * ``square``: one size line (the side) instead of rows, then columns.
    * ``size(rows, cols) -> message | None``: why a file's size cannot be this genre's.
    * ``refuse(puzzle) -> message | None``: why a puzzle cannot be written (UnsupportedGenre).

    Writing a solution must give a file the puzz.link engine accepts as solved
    (tests/test_pzpr.py runs pzprjs's checker on it).
    """

    pids: tuple[str, ...]
    sections: tuple[Section, ...]
    read: Callable[[Grids], tuple[Any, Any]]
    write: Callable[[Any, Any], Mapping[str, Sequence[Sequence[Any]]]]
    version: str = "pzprv3"
    square: bool = False
    size: Callable[[int, int], str | None] = any_size
    refuse: Callable[[Any], str | None] = never

    @property
    def pid(self) -> str:
        return self.pids[0]

    def encode(self, puzzle: Any, solution: Any = None) -> str:
        """The pzprv3 text of ``puzzle``, with ``solution`` filled in as the answer when given."""
        check_sides(puzzle)
        problem = self.refuse(puzzle)
        if problem is not None:
            raise UnsupportedGenre(problem)
        sizes = [puzzle.rows] if self.square else [puzzle.rows, puzzle.cols]
        lines = [self.version, self.pid, *map(str, sizes)]
        grids = self.write(puzzle, solution)
        for section in self.sections:
            if section.version in (None, self.version):
                lines += [" ".join(map(token, row)) if section.line else "".join(f"{token(v)} " for v in row)
                          for row in grids[section.name]]
        return "\n".join(lines) + "\n"


def codecs() -> dict[str, tuple[str, Codec]]:
    """pid -> (genre name, codec), over the registry's genres with a ``PZPRV3`` part."""
    return by_pid("PZPRV3")


# -- reading --------------------------------------------------------------------------------------
def is_pzprv3(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("pzprv3")


def read(text: str, source: str = "<pzprv3>", genre: str | None = None) -> list[Loaded]:
    """Every puzzle (with its answer) in a pzprv3 text; one-line errors with line and column."""
    lines = [(i + 1, raw.rstrip("\r")) for i, raw in enumerate(text.split("\n"))]
    starts = [k for k, (_, t) in enumerate(lines) if t.strip().startswith("pzprv3")]
    if not starts or any(t.strip() for _, t in lines[: starts[0]]):
        first = next(n for n, t in lines if t.strip())
        raise ParseError(source, first, "a pzprv3 file starts with a 'pzprv3' line")
    out = []
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        out.append(_read_one(lines[a:b], source, genre))
    return out


class _Cursor:
    """The lines of one file, read grid row by grid row; errors name the line and token."""

    def __init__(self, lines: list[Line], source: str):
        self.lines, self.source, self.at = lines, source, 0

    def error(self, message: str, line: int | None = None, col: int | None = None) -> ParseError:
        if line is None:
            line = self.lines[min(self.at, len(self.lines) - 1)][0]
        return ParseError(self.source, line, message, col)

    def next_line(self, what: str) -> Line:
        while self.at < len(self.lines) and not self.lines[self.at][1].strip():
            self.at += 1
        if self.at >= len(self.lines):
            last = max(n for n, t in self.lines if t.strip())
            raise self.error(f"the file ends before {what} (truncated pzprv3 file)", last)
        self.at += 1
        return self.lines[self.at - 1]

    def more(self) -> bool:
        return any(t.strip() for _, t in self.lines[self.at:])

    def size(self, what: str) -> tuple[int, int]:
        """A size line: (value, line)."""
        n, t = self.next_line(f"the number of {what}")
        value = number(t.strip())
        if value is None or not 1 <= value <= MAX_SIDE:
            raise self.error(f"number of {what} {t.strip()!r} is not a number 1..{MAX_SIDE}", n, 1)
        return value, n

    def grid(self, rows: int, cols: int, what: str, line: bool = False) -> list[list[tuple[str, int, int]]]:
        """``rows`` lines of ``cols`` tokens: (token, line, 1-based column)."""
        out = []
        for r in range(rows):
            n, t = self.next_line(f"the {what}" if line else f"row {r + 1} of the {what}")
            tokens, col = [], 0
            for word in t.split():
                col = t.index(word, col)
                tokens.append((word, n, col + 1))
                col += len(word)
            if len(tokens) != cols:
                if line:
                    raise self.error(f"the {what} is a line of one token, found {len(tokens)}", n)
                raise self.error(f"row {r + 1} of the {what} has {len(tokens)} cells, expected {cols}", n)
            out.append(tokens)
        return out


def _read_one(lines: list[Line], source: str, genre: str | None) -> Loaded:
    cur = _Cursor(lines, source)
    n0, header = cur.next_line("the header")
    version = header.strip()
    if version not in ("pzprv3", "pzprv3.1"):
        raise cur.error(f"unknown pzprv3 version {version!r} (pzprv3 or pzprv3.1)", n0, 1)
    n1, pid_text = cur.next_line("the puzzle type")
    pid = pid_text.strip()
    known = codecs()
    if pid not in known:
        written = dict.fromkeys(codec.pid for _, codec in known.values())
        raise cur.error(f"unknown puzzle type {pid!r}; satgrid reads {', '.join(written)}", n1, 1)
    found, codec = known[pid]
    if genre is not None and genre != found:
        raise cur.error(f"the file holds a {found} puzzle but the genre asked for is {genre}", n1, 1)
    if codec.square:
        rows, at = cur.size("rows and columns")
        cols = rows
    else:
        (rows, at), (cols, at) = cur.size("rows"), cur.size("columns")
    problem = codec.size(rows, cols)
    if problem is not None:
        raise cur.error(problem, at, 1)
    values: dict[str, list[list[Any]]] = {}
    places: dict[str, list[list[tuple[int, int]]]] = {}
    in_answer = False
    for section in codec.sections:
        if section.version not in (None, version):
            continue
        if section.answer and not in_answer:
            if not cur.more():
                break  # the file holds no answer
            in_answer = True
        height, width = (1, 1) if section.line else (rows + section.shape[0], cols + section.shape[1])
        # a grid without columns is written as empty lines (pzprjs), which the reader skips
        grid = cur.grid(height, width, section.name, section.line) if height and width else [[] for _ in range(height)]
        out = []
        for row in grid:
            read_row = []
            for word, n, col in row:
                try:
                    read_row.append(section.read(word, rows, cols))
                except ValueError as exc:
                    raise cur.error(str(exc), n, col) from None
            out.append(read_row)
        values[section.name] = out
        places[section.name] = [[(n, col) for _, n, col in row] for row in grid]
    puzzle, solution = codec.read(Grids(rows, cols, version, Source(source, n0), values, places))
    return Loaded(puzzle, solution)


# -- rooms ----------------------------------------------------------------------------------------
def _room_count(word: str, rows: int, cols: int) -> int:
    value = number(word)
    if value is None or not 1 <= value <= rows * cols:
        raise ValueError(f"{word!r} is not a room count 1..{rows * cols}")
    return value


def _room_id(word: str, rows: int, cols: int) -> str:
    return word


#: The room count line (read, then checked by :func:`rooms_of`).
ROOM_COUNT = Section("room count", _room_count, line=True)
#: The room grid: a room id a cell (pzprjs writes 0..n-1 in room order, ``.`` for a cell in none).
ROOM_GRID = Section("room grid", _room_id)


def room_sections() -> tuple[Section, Section]:
    """pzprjs's ``decodeAreaRoom``/``encodeAreaRoom`` (``src/puzzle/FileData.js``): a line with the
    number of rooms, then the room-id grid (borders go between cells whose ids differ, as
    ``rdata2Border`` draws them; ids compare as text). Put them in a codec's ``sections`` where
    the genre's ``FileIO`` reads them; :func:`rooms_of` reads them back, :func:`room_grids`
    writes them."""
    return ROOM_COUNT, ROOM_GRID


def rooms_of(grids: Grids) -> Any:
    """The rooms (:data:`satgrid.rooms.Rooms`) of the room sections; an error at the count line
    when it does not match the rooms the grid draws (pzprjs ignores the line; satgrid is strict)."""
    from ..rooms import rooms_from_ids

    rooms = rooms_from_ids(grids[ROOM_GRID.name])
    [[count]] = grids[ROOM_COUNT.name]
    if count != len(rooms):
        raise grids.error(ROOM_COUNT.name, 0, 0, f"the room count says {count}, the room grid draws {len(rooms)} rooms")
    return rooms


def room_grids(rows: int, cols: int, rooms: Any) -> dict[str, list[list[Any]]]:
    """The room sections' values of ``rooms`` as pzprjs writes them: the count, then ids 0..n-1
    in room order; merge them into what a codec's ``write`` returns."""
    from ..rooms import room_ids

    return {ROOM_COUNT.name: [[len(rooms)]], ROOM_GRID.name: [list(row) for row in room_ids(rows, cols, rooms)]}


def write(puzzle: Any, solution: Any = None) -> str:
    """The pzprv3 text of ``puzzle`` (its genre's codec), with ``solution`` as the answer."""
    from ..registry import GENRES

    codec = GENRES[puzzle.genre].part("PZPRV3")
    if codec is None:
        raise UnsupportedGenre(f"no pzprv3 format for genre {puzzle.genre}")
    return codec.encode(puzzle, solution)
