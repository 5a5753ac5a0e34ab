"""Reading puzzle files into records, one record per puzzle, before a genre parses them.

Genre detection, for every genre (first match wins):
1. ``--genre`` on the command line (or ``genre=`` in the library call);
2. a ``genre: NAME`` header line (or a line holding only a genre name) before the puzzles, or a
   ``genre:`` key inside a ``puzzle ... end`` block;
3. the Sudoku line format: every puzzle line holds n*n symbols (n = 4, 6, 9, 12, 16, 25), which
   no other genre's text format produces.
Anything else is an error that names the options: satgrid never guesses between genres.

Layouts: a ``puzzle <id> / key: value / givens: / <grid> / [solution: / <grid>] / end`` block
format (several blocks a file), or optional header lines followed by the genre's own text
(puzzles separated by blank lines, or one puzzle a line where the genre allows it). Lines starting
with ``#`` are comments.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ParseError

Line = tuple[int, str]  # (1-based line number, text without newline)

_HEADER = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(.*)$")


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

    def error(self, message: str, line: int | None = None, column: int | None = None) -> ParseError:
        return ParseError(self.source, self.line if line is None else line, message, column)


def read_text(path: str) -> tuple[str, str]:
    """(display name, text) of a file, or of standard input for ``-``."""
    import sys

    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        p = Path(path)
        if not p.exists():
            raise ParseError(path, None, "no such file")
        if p.is_dir():
            raise ParseError(path, None, "is a directory, not a puzzle file")
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise ParseError(path, None, f"cannot read: {exc.strerror}") from None
        name = path
    if b"\0" in data:
        raise ParseError(name, None, "binary file, not a puzzle text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(name, line, "not UTF-8 text") from None
    return name, text


def split_records(source: str, text: str, genres: set[str], genre: str | None) -> list[Record]:
    """Cut a file into one record per puzzle (the genre's ``split`` may cut further)."""
    lines = [(i + 1, raw.rstrip("\r\n").rstrip()) for i, raw in enumerate(text.splitlines())]
    content = [(n, t) for n, t in lines if t.strip() and not t.lstrip().startswith("#")]
    if not content:
        raise ParseError(source, None, "empty file: no puzzle in it")
    if content[0][1].strip().split()[0] == "puzzle":
        return _blocks(source, lines, genres, genre)
    meta: dict[str, str] = {}
    body_start = 0
    for index, (n, t) in enumerate(content):
        word = t.strip()
        header = _HEADER.match(word)
        if word.lower() in genres:
            meta["genre"] = word.lower()
        elif header and not word.startswith(("http:", "https:")):
            meta[header.group(1).lower()] = header.group(2).strip()
        else:
            body_start = index
            break
    else:
        raise ParseError(source, content[-1][0], "header lines but no puzzle after them")
    first_body_line = content[body_start][0]
    body = [(n, t) for n, t in lines if n >= first_body_line and not t.lstrip().startswith("#")]
    chosen = genre or meta.pop("genre", None)
    if chosen is not None:
        chosen = chosen.lower()
    return [Record(source, first_body_line, "", chosen, meta, body)]


def _blocks(source: str, lines: list[Line], genres: set[str], genre: str | None) -> list[Record]:
    records: list[Record] = []
    current: Record | None = None
    section = "header"
    for n, t in lines:
        word = t.strip()
        if not word or word.startswith("#") and section == "header":
            if current is not None and section != "header" and not word:
                continue
            continue
        if current is None:
            parts = word.split(maxsplit=1)
            if parts[0] != "puzzle":
                raise ParseError(source, n, f"expected 'puzzle <id>' to open a block, found {word!r}")
            current = Record(source, n, parts[1] if len(parts) > 1 else f"#{len(records) + 1}", genre)
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
                if genre is None:
                    current.genre = value.lower()
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
    """``text`` as a number when it is a decimal number (the digits ``\\d`` matches), else None.

    ``str.isdigit`` also holds for digits such as ``²``, which ``int`` refuses, and ``int``
    refuses more than 4300 digits: a number of more than 1000 digits reads as :data:`TOO_BIG`.
    """
    if not text.isdecimal():
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
