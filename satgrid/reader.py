"""Reading puzzle files into records, one record per puzzle, before a genre parses them.

Genre detection, for every genre (first match wins):
1. ``--genre`` on the command line (or ``genre=`` in the library call);
2. a ``genre: NAME`` header line (or a line holding only a genre name) before the puzzles, or a
   ``genre:`` key inside a ``puzzle ... end`` block;
3. a format that only one genre writes, recognised by that genre's record (its ``GUESS``, e.g.
   one puzzle a line of n*n symbols, which no other genre's text format produces).
Anything else is an error that names the options: satgrid never guesses between genres. Where
several say a genre (``--genre``, a file name ending a genre claims in its ``SUFFIXES``, a
``genre:`` line) they must agree, after the genres' ``ALIASES``; a disagreement or an unknown
name is a :class:`ParseError` naming the line.

Input is bounded by :class:`Limits`: bytes read, lines, a line's length and a puzzle's cells.

Layouts: a ``puzzle <id> / key: value / givens: / <grid> / [solution: / <grid>] / end`` block
format (several blocks a file), or optional header lines followed by the genre's own text
(puzzles separated by blank lines, or one puzzle a line where the genre allows it). Lines starting
with ``#`` are comments.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, ClassVar, Iterable, Mapping

from .errors import ParseError

Line = tuple[int, str]  # (1-based line number, text without newline)

_HEADER = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(.*)$")


_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Limits:
    """How much input satgrid takes before it refuses, each with the option that raises it.

    Reading stops past ``input_mib`` MiB (files are read in chunks, so ``/dev/zero`` or an endless
    pipe ends with an error, not an exhausted memory); the puzzles read hold far more memory than
    their text (a file of small puzzles takes dozens of bytes a byte), which sets the default. A
    puzzle may have at most ``cells`` cells
    (parsers check while they read rows, so a huge grid is refused before it is held); and the
    encoding the genre's ``estimate`` expects for ``connectivity`` may have at most ``clauses``
    clauses (an encoding costs a few hundred bytes a clause in memory).
    """

    input_mib: int = 16
    cells: int = 10_000
    clauses: int = 5_000_000
    connectivity: str = "lazy"

    #: The command-line option that raises each limit.
    FLAGS: ClassVar[dict[str, str]] = {"input_mib": "--max-input-mib", "cells": "--max-cells",
                                        "clauses": "--max-clauses"}

    #: Lines a MiB of input may hold at most (16 bytes a line on average): bounds what the reader
    #: holds per line, which is more than the line's bytes.
    LINES_PER_MIB: ClassVar[int] = 1 << 16
    #: Characters a line may hold per cell of the cell limit (a row of numbers, or a JSON result
    #: line with a puzzle and its solutions, stays far below).
    LINE_CHARS_PER_CELL: ClassVar[int] = 32

    def over(self, limit: str) -> str:
        """``more than the limit of N (--flag N raises it)`` for a field name."""
        return f"more than the limit of {getattr(self, limit):,} ({self.FLAGS[limit]} N raises it)"

    def cells_error(self, rows: int, cols: int) -> str | None:
        """The message when a rows x cols grid has too many cells, else None."""
        if rows * cols <= self.cells:
            return None
        return f"a {rows}x{cols} grid (rows x columns) has {rows * cols:,} cells, {self.over('cells')}"

    def check_lines(self, source: str, text: str) -> None:
        """Refuse more lines than :data:`LINES_PER_MIB` allows, or a line longer than any row of a
        puzzle within the cell limit could be, before a parser divides the text."""
        most = self.LINES_PER_MIB * self.input_mib
        lines = text.count("\n")
        if lines > most:
            raise ParseError(source, None, f"{lines:,} lines, more than the limit of {most:,} (16 bytes a "
                                           f"line on average; {self.FLAGS['input_mib']} N raises it)")
        longest = self.LINE_CHARS_PER_CELL * self.cells + 4096
        start = 0
        while len(text) - start > longest:
            # every line ending inside the next longest + 1 characters is short enough: jump past them
            cut = text.rfind("\n", start, start + longest + 1)
            if cut >= 0:
                start = cut + 1
                continue
            end = text.find("\n", start)
            length = (len(text) if end < 0 else end) - start
            line = text.count("\n", 0, start) + 1
            raise ParseError(source, line, f"a line of {length:,} characters, longer than a row of a "
                                           f"puzzle of at most {self.cells:,} cells can be "
                                           f"({self.FLAGS['cells']} N raises the limit)")


@dataclass
class Record:
    """The text of one puzzle, with where it came from and its header keys."""

    source: str
    line: int
    name: str
    genre: str | None
    meta: dict[str, str] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    solution_lines: list[Line] = field(default_factory=list)
    limits: Limits = Limits()

    def part(self, line: int, lines: list[Line], name: str = "") -> "Record":
        """A record for a part of this one (a genre's ``split``): same source, genre, keys, limits."""
        return Record(self.source, line, name, self.genre, dict(self.meta), lines, limits=self.limits)

    def check_cells(self, rows: int, cols: int, line: int | None = None) -> None:
        """Refuse a grid that reaches more cells than the limits allow with ``rows`` rows of
        ``cols`` (parsers call this as rows come in, before they hold the whole grid)."""
        if rows * cols > self.limits.cells:
            raise self.error(f"the grid reaches {rows * cols:,} cells by this line ({rows} rows of "
                             f"{cols}), {self.limits.over('cells')}", line)

    def token_rows(self, lines: list[Line] | None = None) -> list[tuple[int, list[tuple[str, int]]]]:
        """The non-blank lines of a grid (default: the record's) as ``(line, [(token, column),
        ...])``, tokens split on whitespace, columns 1-based; the cell limit is checked as rows
        come in (:meth:`check_cells`, rows as long as the first)."""
        rows: list[tuple[int, list[tuple[str, int]]]] = []
        for n, text in self.lines if lines is None else lines:
            tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
            if tokens:
                rows.append((n, tokens))
                self.check_cells(len(rows), len(rows[0][1]), n)
        return rows

    def error(self, message: str, line: int | None = None, column: int | None = None) -> ParseError:
        return ParseError(self.source, self.line if line is None else line, message, column)


def is_decimal(token: str) -> bool:
    """Whether ``token`` is a number written in ASCII digits 0-9 (``str.isdigit`` also accepts
    superscripts and other scripts' digits, which puzzle files never mean as numbers)."""
    return token.isascii() and token.isdigit()


def read_text(path: str, limits: Limits = Limits(), what: str = "puzzle") -> tuple[str, str]:
    """(display name, text) of a file, or of standard input for ``-``; read in chunks, and never
    past ``limits.input_mib`` MiB. ``what`` the file should hold names it in errors (a binary
    file is "not a model text")."""
    import sys

    if path == "-":
        name = "<stdin>"
        data = _read_bounded(sys.stdin.buffer, name, limits, what)
    else:
        p = Path(path)
        if not p.exists():
            raise ParseError(path, None, "no such file")
        if p.is_dir():
            raise ParseError(path, None, f"is a directory, not a {what} file")
        name = path
        try:
            with p.open("rb") as stream:
                data = _read_bounded(stream, name, limits, what)
        except OSError as exc:
            raise ParseError(path, None, f"cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(name, line, "not UTF-8 text") from None
    return name, text


#: Bytes read at a time.
CHUNK = 1 << 20


def _read_bounded(stream: BinaryIO, name: str, limits: Limits, what: str = "puzzle") -> bytes:
    """The bytes of ``stream``, chunk by chunk; a NUL byte (a binary file) or more than the input
    limit stops the reading with an error."""
    most = limits.input_mib * (1 << 20)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(CHUNK)
        if not chunk:
            return b"".join(chunks)
        nul = chunk.find(b"\0")
        if nul >= 0:
            line = sum(c.count(b"\n") for c in chunks) + chunk.count(b"\n", 0, nul) + 1
            raise ParseError(name, line, f"binary file (a NUL byte), not a {what} text")
        size += len(chunk)
        if size > most:
            raise ParseError(name, None, f"more than {limits.input_mib} MiB of input, the limit "
                                         f"({limits.FLAGS['input_mib']} N raises it)")
        chunks.append(chunk)


def split_records(source: str, text: str, genres: Iterable[str], genre: str | None,
                  aliases: Mapping[str, str] | None = None, genre_from: str = "--genre",
                  limits: Limits = Limits()) -> list[Record]:
    """Cut a file into one record per puzzle (the genre's ``split`` may cut further).

    ``genres`` are the known genre names and ``aliases`` other names for them; ``genre`` (a known
    name, or None) is what ``genre_from`` (``--genre``, a file name's ending) asks for. A file's
    own ``genre:`` line must name a known genre and agree with ``genre``, else a
    :class:`ParseError` names that line."""
    names = GenreNames(source, tuple(genres), dict(aliases or {}), genre, genre_from)
    lines = [(i + 1, raw.rstrip("\r\n").rstrip()) for i, raw in enumerate(text.splitlines())]
    content = [(n, t) for n, t in lines if t.strip() and not t.lstrip().startswith("#")]
    if not content:
        raise ParseError(source, None, "empty file: no puzzle in it" if not text.strip() else
                         "no puzzle in it: only blank and comment ('#') lines")
    if content[0][1].strip().split()[0] == "puzzle":
        return _blocks(source, lines, names, limits)
    meta: dict[str, str] = {}
    declared: str | None = None
    body_start = 0
    for index, (n, t) in enumerate(content):
        word = t.strip()
        header = _HEADER.match(word)
        if names.known(word):
            declared = names.declared(word, n)
        elif header and not word.startswith(("http:", "https:")):
            key, value = header.group(1).lower(), header.group(2).strip()
            if key == "genre":
                declared = names.declared(value, n)
            else:
                meta[key] = value
        else:
            body_start = index
            break
    else:
        raise ParseError(source, content[-1][0], "header lines but no puzzle after them")
    first_body_line = content[body_start][0]
    body = [(n, t) for n, t in lines if n >= first_body_line and not t.lstrip().startswith("#")]
    return [Record(source, first_body_line, "", genre or declared, meta, body, limits=limits)]


@dataclass(frozen=True)
class GenreNames:
    """Resolves the genre names a file declares (``genre: NAME`` or a bare name, aliases
    included) and checks them against the one asked for."""

    source: str
    genres: tuple[str, ...]
    aliases: dict[str, str]
    wanted: str | None
    wanted_from: str

    def known(self, name: str) -> bool:
        key = name.lower()
        return self.aliases.get(key, key) in self.genres

    def declared(self, name: str, line: int) -> str:
        """The genre a ``genre:`` line at ``line`` names, checked."""
        key = self.aliases.get(name.lower(), name.lower())
        if key not in self.genres:
            raise ParseError(self.source, line,
                             f"unknown genre {name!r}; known genres: {', '.join(self.genres)}")
        if self.wanted is not None and key != self.wanted:
            raise ParseError(self.source, line, f"the file says genre {key}, but {self.wanted_from} says "
                                                f"{self.wanted}: they must agree")
        return key


def _blocks(source: str, lines: list[Line], names: GenreNames, limits: Limits) -> list[Record]:
    records: list[Record] = []
    current: Record | None = None
    section = "header"
    for n, t in lines:
        word = t.strip()
        if not word or word.startswith("#") and section == "header":
            continue
        if current is None:
            parts = word.split(maxsplit=1)
            if parts[0] != "puzzle":
                raise ParseError(source, n, f"expected 'puzzle <id>' to open a block, found {word!r}")
            current = Record(source, n, parts[1] if len(parts) > 1 else f"#{len(records) + 1}", names.wanted,
                             limits=limits)
            section = "header"
            continue
        if word == "end":
            if not current.lines:
                raise ParseError(source, n, f"puzzle {current.name!r} has no 'givens:' grid")
            records.append(current)
            current = None
            continue
        if word in ("givens:", "solution:"):
            section = word[:-1]
            continue
        if section == "header":
            header = _HEADER.match(word)
            if not header:
                raise ParseError(source, n, f"expected 'key: value', 'givens:' or 'end', found {word!r}")
            key, value = header.group(1).lower(), header.group(2).strip()
            if key == "genre":
                current.genre = names.declared(value, n)
            else:
                current.meta[key] = value
        elif section == "givens":
            current.lines.append((n, t))
        else:
            current.solution_lines.append((n, t))
    if current is not None:
        raise ParseError(source, current.line, f"puzzle {current.name!r} has no closing 'end' line")
    return records


#: What :func:`number` gives for a number of more than 1000 digits: beyond every range satgrid
#: reads, and a product of a few such still converts to text (``str`` refuses 4300 digits).
TOO_BIG = 10 ** 1000


def number(text: str) -> int | None:
    """``text`` as a number when it is written in ASCII digits 0-9 (:func:`is_decimal`), else
    None. ``int`` refuses more than 4300 digits: a number of more than 1000 digits reads as
    :data:`TOO_BIG`."""
    if not is_decimal(text):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 1000 else TOO_BIG


def split_on_blank_lines(lines: list[Line]) -> list[list[Line]]:
    """Groups of consecutive non-blank lines."""
    groups: list[list[Line]] = []
    current: list[Line] = []
    for n, t in lines:
        if t.strip():
            current.append((n, t))
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def split_grids(record: Record) -> list[Record]:
    """One record per grid: a ``puzzle ... end`` block as it is, or grids separated by blank
    lines (numbered 1, 2, ... when there are several). The default ``split`` of a genre."""
    if record.name:
        return [record]
    groups = split_on_blank_lines(record.lines)
    return [record.part(lines[0][0], lines, str(i) if len(groups) > 1 else "")
            for i, lines in enumerate(groups, 1)]
