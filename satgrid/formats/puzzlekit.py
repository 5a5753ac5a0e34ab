"""The puzzlekit dataset's grid text as an input format (GitHub SmilingWayne/puzzlekit-dataset).

A file holds blocks (the layout of ``../shared/external/genres/puzzlekit_<genre>.txt``)::

    # <Genre>: 30 of 941 puzzles with solutions in puzzlekit-dataset assets/data/<Genre>/...
    puzzle <genre>-01_4x4
    source: https://www.janko.at/Raetsel/<Genre>/001.a.htm
    problem:
    4 4
    3 3 1 4
    ...
    solution:
    4 4
    - x - -
    ...
    end

Each grid text is the dataset's own: a size line ``rows cols [extra]``, then rows of
space-separated tokens (``-`` empty, a number a clue, ``x`` shaded or blocked), and, for some
genres, further grids or lines (rooms, edge clues). ``source:`` and other ``key: value`` lines
before ``problem:`` are kept as the block's ``meta``; ``solution:`` is optional.

Recognised (:func:`is_puzzlekit`) by the dataset's header comment ``# <Genre>: ... puzzlekit-dataset``,
a ``format: puzzlekit`` line before the first block, or a first block that holds ``problem:``
(satgrid's own block format says ``givens:``). The genre comes from that header comment (the
dataset's genre name), a ``genre:`` line (before the blocks or inside one: a satgrid genre name
or the dataset's), or ``--genre``; where several say one, they must agree.

The tokens mean different things per genre, so each genre that reads this format declares a
:class:`Codec` in its own folder as ``PUZZLEKIT``. The codec *translates* the dataset's grids into
the genre's own text format, which the genre's ``parse`` and ``parse_solution`` then read, so
every check of the genre's parser applies and an error points at the dataset file's line and
column (columns of translated tokens are mapped back to the dataset's tokens). A ``solution:``
section becomes the puzzle's given solution (compared with the solution found, as with a block's
``solution:``); a section that does not read is kept as the given solution's error ("invalid").

This module must not import :mod:`satgrid.registry` at its top (genres import it to build their
codecs); the registry is looked up inside the functions that need it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..errors import ParseError
from ..puzzle import GivenSolution
from ..reader import Limits, Record, number
from .pzprv3 import Loaded

if TYPE_CHECKING:  # pragma: no cover
    from ..registry import Genre

#: A token of a grid line: its text and its 1-based column.
Token = tuple[str, int]
#: A grid line: its 1-based line number and its tokens.
Row = tuple[int, tuple[Token, ...]]

#: The dataset files' first line: ``# <Genre>: 30 of 941 puzzles with solutions in puzzlekit-dataset ...``.
_DATASET_HEADER = re.compile(r"^#\s*([A-Za-z][A-Za-z0-9]*)\s*:.*\bpuzzlekit-dataset\b")
_HEADER = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(.*)$")
_TOKEN = re.compile(r"\S+")


def _tokens(text: str) -> tuple[Token, ...]:
    return tuple((m.group(), m.start() + 1) for m in _TOKEN.finditer(text))


# -- the grid text of one section ----------------------------------------------------------------
@dataclass(frozen=True)
class Section:
    """One ``problem:`` or ``solution:`` grid text: the size line and every line after it.

    ``lines`` holds the section's non-blank lines, the size line first; ``line`` is the line of
    the ``problem:``/``solution:`` keyword. :meth:`grid` reads the ``rows x cols`` grid the size
    line announces, :meth:`error` builds a :class:`ParseError` at a line and column."""

    source: str
    line: int
    name: str
    lines: tuple[Row, ...]

    def error(self, message: str, line: int | None = None, column: int | None = None) -> ParseError:
        return ParseError(self.source, self.line if line is None else line, message, column)

    @property
    def size(self) -> tuple[int, int]:
        """(rows, cols) of the size line; ParseError unless it starts with two positive numbers."""
        if not self.lines:
            raise self.error(f"the {self.name} section is empty: it starts with a line 'rows cols'")
        n, tokens = self.lines[0]
        found = [number(t) for t, _ in tokens[:2]]
        if len(found) < 2 or None in found or 0 in found:
            raise self.error(f"the {self.name} grid starts with a line 'rows cols' (two positive "
                             f"numbers), not {' '.join(t for t, _ in tokens)!r}", n, tokens[0][1])
        return found[0], found[1]  # type: ignore[return-value]

    @property
    def extra(self) -> tuple[Token, ...]:
        """The size line's tokens after ``rows cols`` (one genre's count per unit)."""
        return self.lines[0][1][2:] if self.lines else ()

    def grid(self, first: int = 1, rows: int | None = None, cols: int | None = None) -> list[Row]:
        """The ``rows x cols`` grid (the size line's, unless given) starting at ``lines[first]``:
        ParseError unless that many lines follow, each of ``cols`` tokens."""
        height, width = self.size
        rows = height if rows is None else rows
        cols = width if cols is None else cols
        got = list(self.lines[first:first + rows])
        if len(got) < rows:
            where = got[-1][0] if got else self.lines[0][0]
            raise self.error(f"the {self.name} grid has {len(got)} rows after its size line, "
                             f"which says {rows}", where)
        for n, tokens in got:
            if len(tokens) != cols:
                raise self.error(f"a {self.name} row of {len(tokens)} cells; the size line says "
                                 f"{cols} columns", n)
        return got

    def only(self, used: int) -> None:
        """ParseError at the first line past the first ``used`` lines (size line included)."""
        if len(self.lines) > used:
            n, tokens = self.lines[used]
            raise self.error(f"a line after the {self.name} grid: this genre's {self.name} is one "
                             "grid (a line 'end' closes the block)", n, tokens[0][1])


#: A translation of a section into the genre's own text: rows of (genre token, dataset column).
Translate = Callable[[Section], list[Row]]


@dataclass(frozen=True)
class Tokens:
    """Translates the section's one ``rows x cols`` grid cell for cell: a token ``table`` names
    becomes its entry; any other token is passed on unchanged (the genre's parser judges it),
    or, with ``strict``, is an error that lists the table's tokens. A line past the grid is an
    error."""

    table: Mapping[str, str] = field(default_factory=dict)
    strict: bool = False

    def __call__(self, section: Section) -> list[Row]:
        grid = section.grid()
        section.only(1 + len(grid))
        return self.translate(section, grid)

    def translate(self, section: Section, grid: list[Row]) -> list[Row]:
        """The rows of ``grid`` (of ``section``) translated token for token."""
        out = []
        for n, tokens in grid:
            row = []
            for text, col in tokens:
                if text in self.table:
                    row.append((self.table[text], col))
                elif self.strict:
                    allowed = " or ".join(repr(t) for t in self.table)
                    raise section.error(f"{text!r} is not a {section.name} cell here: use {allowed}", n, col)
                else:
                    row.append((text, col))
            out.append((n, tuple(row)))
        return out


@dataclass(frozen=True)
class WithRooms:
    """Translates a problem of a clue grid followed by a grid of room ids (the dataset's layout
    for genres with rooms), both ``rows x cols``, into a genre's text of the same two grids
    (:func:`satgrid.rooms.read_text` reads it): the clue grid through ``clues`` (a
    :class:`Tokens`), the room ids passed on as they are (the genre's reader judges them).
    ``clues=None``: the problem is the room grid alone. ``drop_clues``: the clue grid is checked
    through ``clues`` (a strict table: what the dataset writes in a genre without clues) and left
    out, the genre's text being the room grid alone. A line past the grids is an error."""

    clues: Tokens | None = Tokens()
    drop_clues: bool = False

    def __call__(self, section: Section) -> list[Row]:
        rows = section.size[0]
        out: list[Row] = []
        if self.clues is not None:
            out = self.clues.translate(section, section.grid())
        ids = section.grid(first=1 + len(out))
        section.only(1 + len(out) + rows)
        return ids if self.drop_clues else [*out, *ids]


@dataclass(frozen=True)
class Codec:
    """How a genre reads (and writes) the puzzlekit dataset's grids; a genre declares one as
    ``PUZZLEKIT`` in its folder. A shading genre with numbered cells, for example::

        from ...formats import puzzlekit

        PUZZLEKIT = puzzlekit.Codec(
            "Example",                                    # the dataset's genre name
            problem=puzzlekit.Tokens({"-": "."}),         # numbers pass on to parse()
            solution=puzzlekit.Tokens({"x": "#", "-": "."}, strict=True),
            solver="example",                             # puzzlekit's puzzle type
            write=lambda puzzle, solution: ...,           # optional: the dataset's token rows
        )

    ``dataset``: the genre's name in the dataset (the files' header comment, the dataset's
    ``assets/data/<Genre>/`` folder); matched without regard to case.

    ``problem``, ``solution``: :data:`Translate` functions from a :class:`Section` to rows of the
    genre's own tokens, each with the dataset column it came from. The rows, laid out as text
    lines under their dataset line numbers, go to the genre's ``parse`` (problem) and
    ``parse_solution`` (solution, as ``Record.solution_lines``); the genre's errors keep the
    dataset's line and column. :class:`Tokens` covers a single grid translated cell for cell
    (``Tokens()`` passes every token on); :class:`WithRooms` a clue grid followed by a grid of
    room ids (``WithRooms(Tokens({"-": "."}))``), or the room grid alone (``WithRooms(None)``).
    A genre with edge clues or cells that need more than a table writes its own function, for
    example::

        def arrows(section: puzzlekit.Section) -> list[puzzlekit.Row]:
            clues = section.grid()                       # rows x cols after the size line
            section.only(1 + len(clues))                 # nothing after the grid
            bad = next(((n, col) for n, row in clues for t, col in row
                        if t != "-" and not t[:-1].isdigit()), None)
            if bad:
                raise section.error("not a clue: use - or a number and a direction", *bad)
            return clues

    Its tools: ``section.size`` (rows, cols), ``section.extra`` (the size line's further
    tokens), ``section.grid(first, rows, cols)``, ``section.only(used)`` and ``section.error``.

    ``solver``: puzzlekit's puzzle type for its own solver (``puzzlekit.solve(text, solver)``,
    used by ``bench/bench_genres.py``); empty means ``dataset`` in lower case.

    ``write``: optional, ``(puzzle, solution or None) -> (problem token rows, solution token rows
    or None)`` in the dataset's tokens; :func:`write` turns them into a block (with the size
    lines), which :func:`read` reads back to the same puzzle and solution.
    """

    dataset: str
    problem: Translate = Tokens()
    solution: Translate = Tokens()
    solver: str = ""
    write: Callable[[Any, Any], tuple[Sequence[Sequence[str]], Sequence[Sequence[str]] | None]] | None = None
    #: ``(puzzle) -> tokens`` after ``rows cols`` on the size lines :func:`write` writes (a count
    #: per unit the dataset keeps there, :attr:`Section.extra`); none by default.
    size_extra: Callable[[Any], Sequence[str]] | None = None

    @property
    def solver_type(self) -> str:
        return self.solver or self.dataset.lower()

    def read(self, genre: "Genre", block: "Block") -> Loaded:
        """``block`` as the genre's puzzle, and its ``solution:`` read as the genre's solution; a
        solution section that does not read becomes the puzzle's given solution's error."""
        rows = self.problem(block.problem)
        lines, columns = _laid_out(rows)
        cells = sum(len(tokens) for _, tokens in rows)
        record = Record(block.problem.source, block.line, block.name, genre.name, dict(block.meta),
                        lines, limits=Limits(cells=max(Limits().cells, cells)))
        puzzle = _mapping_columns(columns, genre.parse, record)
        if block.solution is None:
            return Loaded(puzzle)
        try:
            _same_size(block.problem, block.solution)
            answer, answer_columns = _laid_out(self.solution(block.solution))
            record.solution_lines = answer
            solution = _mapping_columns(answer_columns, genre.parse_solution, record, puzzle)
        except ParseError as exc:
            return Loaded(replace(puzzle, given_solution=GivenSolution(error=str(exc))))
        return Loaded(puzzle, solution)


def _same_size(problem: Section, solution: Section) -> None:
    if solution.lines and solution.size != problem.size:
        rows, cols = problem.size
        raise solution.error(f"the solution's size line says {'x'.join(map(str, solution.size))}, "
                             f"the problem's {rows}x{cols}", solution.lines[0][0])


def _laid_out(rows: list[Row]) -> tuple[list[tuple[int, str]], dict[int, list[tuple[int, int]]]]:
    """Text lines of translated rows, each token at its dataset column where the line leaves room,
    and per line the (text column, dataset column) of each token, to map error columns back."""
    lines, columns = [], {}
    for n, tokens in rows:
        text, starts = "", []
        for token, col in tokens:
            start = max(col, len(text) + 2) if text else col
            text += " " * (start - 1 - len(text)) + token
            starts.append((start, col))
        lines.append((n, text))
        columns[n] = starts
    return lines, columns


def _mapping_columns(columns: dict[int, list[tuple[int, int]]], parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)``, its ParseError's column moved from the translated text to the dataset's."""
    try:
        return parse(*args)
    except ParseError as exc:
        starts = columns.get(exc.line or 0)
        if exc.column is None or not starts:
            raise
        column = next((col for start, col in reversed(starts) if start <= exc.column), exc.column)
        raise ParseError(exc.source, exc.line, exc.message, column) from None


# -- blocks --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Block:
    """One ``puzzle <id> ... end`` block: its id, line, ``key: value`` lines (``source:``, and
    ``genre:`` when present), and its sections."""

    name: str
    line: int
    meta: dict[str, str]
    problem: Section
    solution: Section | None
    #: (genre name, line) of a ``genre:`` line inside the block, else None.
    genre: tuple[str, int] | None = None


@dataclass(frozen=True)
class File:
    """A puzzlekit file: the genre names it declares before its blocks, with their lines (the
    dataset's header comment, ``genre:`` lines), and its blocks."""

    declared: list[tuple[str, int]]
    blocks: list[Block]


def is_puzzlekit(text: str) -> bool:
    """Whether ``text`` is in this format: the dataset's header comment, a ``format: puzzlekit``
    line, or a first block holding ``problem:``, before anything else."""
    in_block = False
    for raw in text.splitlines():
        word = raw.strip()
        if not word:
            continue
        if word.startswith("#"):
            if not in_block and _DATASET_HEADER.match(word):
                return True
            continue
        header = _HEADER.match(word)
        if header:
            key, value = header.group(1).lower(), header.group(2).strip()
            if key == "format":
                return value.lower() == "puzzlekit"
            if in_block and key == "problem" and not value:
                return True
            continue
        if not in_block and word.split()[0] == "puzzle":
            in_block = True
            continue
        return False
    return False


def split(text: str, source: str) -> File:
    """The blocks of a puzzlekit text; ParseError (with line and column) on a broken layout."""
    declared: list[tuple[str, int]] = []
    blocks: list[Block] = []
    block: dict[str, Any] | None = None
    section: list[Row] | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        word = raw.strip()
        # inside a grid a line may start with '#', a cell (a blocked cell of the dataset)
        if not word or word.startswith("#") and section is None:
            found = _DATASET_HEADER.match(word)
            if found and block is None and not blocks:
                declared.append((found.group(1), n))
            continue
        header = _HEADER.match(word)
        if block is None:
            parts = word.split(maxsplit=1)
            if parts[0] == "puzzle":
                block = {"name": parts[1] if len(parts) > 1 else f"#{len(blocks) + 1}", "line": n,
                         "meta": {}, "problem": None, "solution": None, "genre": None}
            elif header and header.group(1).lower() == "genre" and not blocks:
                declared.append((header.group(2).strip(), n))
            elif header and header.group(1).lower() == "format" and not blocks:
                if header.group(2).strip().lower() != "puzzlekit":
                    raise ParseError(source, n, f"format {header.group(2).strip()!r}: this reader "
                                                "reads format 'puzzlekit'")
            else:
                raise ParseError(source, n, f"expected 'puzzle <id>' to open a block, found {word!r}", 1)
            continue
        key = header.group(1).lower() if header and not header.group(2).strip() else None
        if key in ("problem", "solution"):
            if block[key] is not None:
                raise ParseError(source, n, f"a second '{key}:' in puzzle {block['name']!r}", 1)
            if key == "solution" and block["problem"] is None:
                raise ParseError(source, n, f"'solution:' before 'problem:' in puzzle {block['name']!r}", 1)
            section = []
            block[key] = (n, section)
        elif word == "end":
            if block["problem"] is None:
                raise ParseError(source, n, f"puzzle {block['name']!r} has no 'problem:' grid", 1)
            blocks.append(_block(source, block))
            block, section = None, None
        elif word.split()[0] == "puzzle" and header is None:
            raise ParseError(source, n, f"'puzzle' inside puzzle {block['name']!r}: its block "
                                        "ends with a line 'end'", 1)
        elif section is not None:
            section.append((n, _tokens(raw)))
        elif header:
            value = header.group(2).strip()
            if header.group(1).lower() == "genre":
                block["genre"] = (value, n)
            block["meta"][header.group(1).lower()] = value
        else:
            raise ParseError(source, n, f"expected 'key: value' or 'problem:' in puzzle "
                                        f"{block['name']!r}, found {word!r}", 1)
    if block is not None:
        raise ParseError(source, block["line"], f"puzzle {block['name']!r} has no line 'end'")
    if not blocks:
        raise ParseError(source, None, "no puzzle block ('puzzle <id>' ... 'end') found")
    return File(declared, blocks)


def _block(source: str, block: dict[str, Any]) -> Block:
    sections = {}
    for key in ("problem", "solution"):
        if block[key] is not None:
            line, rows = block[key]
            sections[key] = Section(source, line, key, tuple(rows))
    return Block(block["name"], block["line"], block["meta"], sections["problem"],
                 sections.get("solution"), block["genre"])


# -- genres --------------------------------------------------------------------------------------
def codecs() -> dict[str, Codec]:
    """Every registry genre's ``PUZZLEKIT`` codec, by genre name."""
    from ..registry import with_part

    return {g.name: codec for g, codec in with_part("PUZZLEKIT")}


def genre_of(name: str, source: str, line: int | None) -> str:
    """The satgrid genre a declared name means: a codec's dataset name, else a registry name or
    alias; ParseError when satgrid reads no puzzlekit grids of it."""
    from ..errors import UnsupportedGenre
    from ..registry import genre as genre_named

    known = codecs()
    for key, codec in known.items():
        if codec.dataset.lower() == name.lower():
            return key
    try:
        key = genre_named(name).name
    except UnsupportedGenre:
        key = None
    if key is None or key not in known:
        what = f"genre {key}" if key else f"{name!r} (not a genre satgrid knows)"
        raise ParseError(source, line, f"satgrid reads no puzzlekit grids of {what}; it reads "
                                       f"those of: {', '.join(known) or 'no genre'}")
    return key


def read(text: str, source: str = "<puzzlekit>", genre: str | None = None,
         genre_from: str = "--genre") -> list[Loaded]:
    """Every puzzle of a puzzlekit text, with its solution as the given solution. ``genre`` (a
    registry name, or None) is what ``genre_from`` asks for; the file's declarations must agree."""
    file = split(text, source)
    wanted, wanted_from = genre, genre_from
    if wanted is not None:
        genre_of(wanted, source, None)  # a genre without a codec is refused before any block
    for name, line in file.declared:
        wanted = _agreeing(genre_of(name, source, line), line, wanted, wanted_from, source)
        wanted_from = f"line {line}"
    from ..registry import GENRES

    out = []
    for block in file.blocks:
        key = wanted
        if block.genre is not None:
            name, line = block.genre
            key = _agreeing(genre_of(name, source, line), line, wanted, wanted_from, source)
        if key is None:
            raise ParseError(source, block.line, "cannot tell the genre of this puzzlekit block: "
                                                 "add a line 'genre: NAME' or pass --genre")
        g = GENRES[key]
        out.append(g.part("PUZZLEKIT").read(g, block))
    return out


def _agreeing(key: str, line: int, wanted: str | None, wanted_from: str, source: str) -> str:
    if wanted is not None and key != wanted:
        raise ParseError(source, line, f"the file says genre {key}, but {wanted_from} says "
                                       f"{wanted}: they must agree")
    return key


# -- writing -------------------------------------------------------------------------------------
def write(puzzle: Any, solution: Any = None, name: str | None = None) -> str:
    """One block of ``puzzle`` (and its solution) in the dataset's grid text, through its genre's
    codec's ``write``; :func:`read` reads it back. UnsupportedGenre without one."""
    from ..errors import UnsupportedGenre

    codec = codecs().get(puzzle.genre)
    if codec is None or codec.write is None:
        raise UnsupportedGenre(f"satgrid writes no puzzlekit grids of genre {puzzle.genre}")
    problem, answer = codec.write(puzzle, solution)
    size = " ".join([str(puzzle.rows), str(puzzle.cols), *(codec.size_extra(puzzle) if codec.size_extra else ())])
    lines = [f"puzzle {name or puzzle.name or '1'}", "problem:", size, *(" ".join(row) for row in problem)]
    if answer is not None:
        lines += ["solution:", size, *(" ".join(row) for row in answer)]
    return "\n".join([*lines, "end"]) + "\n"


def header(codec: Codec, count: int) -> str:
    """The dataset files' header comment for ``count`` puzzles, which :func:`is_puzzlekit` knows."""
    return f"# {codec.dataset}: {count} puzzles in puzzlekit-dataset grid text\n\n"


__all__ = ["Codec", "Tokens", "WithRooms", "Section", "Block", "File", "Token", "Row", "Translate", "is_puzzlekit",
           "split", "read", "write", "header", "codecs", "genre_of"]
