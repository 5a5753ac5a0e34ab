"""Other programs' puzzle formats: puzz.link URLs, pzprv3 files, Tatham game IDs, ipuz JSON.

:func:`read` recognises a text in one of these formats and returns its puzzles (or None, and the
reader's own formats take over); :func:`looks_inline` tells whether a command-line argument is a
URL or game ID rather than a file name; :func:`write` converts a puzzle (and its solution) out.

Recognised, first match wins:
1. JSON: satgrid's own results (one object a line, :mod:`.results`), else ipuz;
2. a first line ``pzprv3``: pzprv3 files (several may follow each other);
3. lines that are puzz.link URLs or Tatham game IDs, one a line, after optional header lines
   (``genre: NAME`` or a bare genre name, which must agree with the URLs).

The genre comes from the URL's pid, the pzprv3 header, the ipuz kind or the game's parameters;
a ``genre`` passed in (``--genre``, a ``genre:`` header) must agree, and decides between games
when a game ID's parameters leave it open. Never a guess: an ID two games could read is an error.

Each format module reads and writes through the codecs the genres declare (the ``PUZZLINK``,
``PZPRV3``, ``TATHAM`` and ``IPUZ`` parts of their records, found through the registry); nothing
here knows a genre. The registry is imported inside functions: the genres import the format
modules for their codec building blocks.
"""
from __future__ import annotations

import io
import re
from typing import Any

from ..errors import ParseError, SatgridError, UnsupportedGenre
from ..reader import GenreNames
from . import ipuz, puzzlekit, puzzlink, pzprv3, results, tatham

#: ``--to`` targets of :func:`write` (``svg`` is drawn by :mod:`satgrid.render_svg`).
TARGETS = ("url", "pzprv3", "text", "tatham", "ipuz")
_HEADER = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(.*)$")


def _genre_name(name: str | None) -> str | None:
    """The registry's name for ``name`` (aliases resolved), or None; UnsupportedGenre if unknown."""
    from ..registry import genre as genre_named

    return None if name is None else genre_named(name).name


def kind_of_line(text: str) -> str | None:
    """``"url"``, ``"id"`` or None for one line."""
    if puzzlink.looks_like_url(text):
        return "url"
    if tatham.looks_like_id(text):
        return "id"
    return None


def suffix_genres() -> dict[str, str]:
    """File name ending (lower case) -> the genre whose text format it means, from the genres'
    ``SUFFIXES``; two genres claiming one ending is an error in the registry (ValueError)."""
    from ..registry import with_part

    out: dict[str, str] = {}
    for g, suffixes in with_part("SUFFIXES"):
        for suffix in suffixes:
            if out.setdefault(suffix.lower(), g.name) != g.name:
                raise ValueError(f"file name ending {suffix!r} of genre {g.name} is already {out[suffix.lower()]}'s")
    return out


def genre_of_path(path: str) -> str | None:
    """The genre a file name's ending declares (a genre's ``SUFFIXES``), else None."""
    dot = path.rfind(".")
    return suffix_genres().get(path[dot:].lower()) if dot > path.rfind("/") else None


def looks_inline(argument: str) -> bool:
    """Whether a command-line argument is a URL or game ID itself (not a file name)."""
    return "\n" not in argument and kind_of_line(argument) is not None


def read(text: str, source: str = "<text>", genre: str | None = None,
         genre_from: str = "--genre") -> list[Any] | None:
    """The puzzles of ``text`` when it is in one of these formats, else None."""
    return [loaded.puzzle for loaded in read_with_solutions(text, source, genre, genre_from) or []] or None


def read_with_solutions(text: str, source: str = "<text>", genre: str | None = None,
                        genre_from: str = "--genre") -> list[pzprv3.Loaded] | None:
    """Like :func:`read`, keeping the answers that pzprv3 and ipuz files hold. A ``genre:`` line
    before URLs or game IDs must agree with ``genre`` (what ``genre_from`` asks for)."""
    genre = _genre_name(genre)
    if ipuz.is_json(text):
        found = results.read(text, source, genre, genre_from)
        if found is not None:
            return found
        puzzle, solution = ipuz.read(text, source, genre)
        return [pzprv3.Loaded(puzzle, solution)]
    if pzprv3.is_pzprv3(text):
        return pzprv3.read(text, source, genre)
    if puzzlekit.is_puzzlekit(text):  # the puzzlekit dataset's blocks (header comment or 'problem:')
        return puzzlekit.read(text, source, genre, genre_from)
    from ..registry import ALIASES, GENRES

    names = GenreNames(source, tuple(GENRES), ALIASES, genre, genre_from)
    first_body = None
    for n, raw in enumerate(io.StringIO(text), 1):  # header lines, then the first puzzle line
        word = raw.strip()
        if not word or word.startswith("#"):
            continue
        header = _HEADER.match(word)
        if kind_of_line(word):
            first_body = n
            break
        if names.known(word):
            genre = names.declared(word, n)
        elif header and header.group(1).lower() == "genre":
            genre = names.declared(header.group(2).strip(), n)
        elif not header:
            return None
    if first_body is None:
        return None
    lines = [(i + 1, raw.rstrip("\r")) for i, raw in enumerate(text.split("\n"))]
    body = [(n, t) for n, t in lines[first_body - 1:] if t.strip() and not t.lstrip().startswith("#")]
    kinds = [kind_of_line(t) for _, t in body]
    out = []
    for (n, t), kind in zip(body, kinds):
        if kind is None:
            raise ParseError(source, n, "not a puzz.link URL or a game ID: a file of URLs and game IDs "
                                        "holds one a line (lines starting with # are comments)", 1)
        decode = puzzlink.decode if kind == "url" else tatham.decode
        out.append(pzprv3.Loaded(decode(t, source, n, genre)))
    return out


def write(puzzle: Any, to: str, solution: Any = None) -> str:
    """``puzzle`` (and, for pzprv3 and ipuz, its solution) as ``to``: one of :data:`TARGETS`."""
    if to == "url":
        return puzzlink.encode(puzzle) + "\n"
    if to == "pzprv3":
        return pzprv3.write(puzzle, solution)
    if to == "tatham":
        return tatham.encode(puzzle) + "\n"
    if to == "ipuz":
        return ipuz.write(puzzle, solution)
    if to == "text":
        return text_of(puzzle)
    raise UnsupportedGenre(f"unknown output format {to!r}; choose from {', '.join(TARGETS)}, svg")


def check_writable(puzzles: list[Any], to: str) -> None:
    """Write each puzzle as ``to`` once (without its solution) and drop the text: a puzzle the
    format cannot hold is a SatgridError naming where the puzzle was read, raised before any
    work, so a command that writes puzzle after puzzle writes none rather than those before it."""
    for puzzle in puzzles:
        try:
            write(puzzle, to)
        except SatgridError as exc:
            raise SatgridError(f"{puzzle.source}: {exc}") from None


def write_all(puzzles: list[Any], to: str, solutions: list[Any] | None = None) -> str:
    """Several puzzles in one text: one URL or game ID a line, pzprv3 files one after the other,
    satgrid's block format (``puzzle ... end``) for text; ipuz holds one puzzle a document."""
    solutions = solutions or [None] * len(puzzles)
    if len(puzzles) == 1:
        return write(puzzles[0], to, solutions[0])
    if to == "ipuz":
        raise UnsupportedGenre("an ipuz document holds one puzzle: write each to its own file")
    if to != "text":
        return "".join(write(p, to, s) for p, s in zip(puzzles, solutions))
    return "\n".join(block_of(puzzle, str(index)) for index, puzzle in enumerate(puzzles, 1))


def block_of(puzzle: Any, default_name: str = "1", facts: dict[str, object] | None = None) -> str:
    """One puzzle in satgrid's block format (``puzzle <id>``, ``key: value`` lines, ``givens:``,
    the grid, ``end``), which the reader reads back; ``facts`` become further ``key: value``
    lines, which the genres' parsers leave alone (``rows`` and ``cols`` they check)."""
    headers, grid = _text_parts(puzzle)
    headers += [f"{key}: {value}" for key, value in (facts or {}).items()]
    return "\n".join([f"puzzle {puzzle.name or default_name}", *headers, "givens:", grid, "end"]) + "\n"


def text_of(puzzle: Any) -> str:
    """satgrid's own text format (a ``genre:`` header and the genre's grid), which reads back; a
    grid with a line that starts with ``#`` (a blocked cell in the first column), which that
    format reads as a comment, in the block format, whose grids keep such lines."""
    headers, grid = _text_parts(puzzle)
    if any(line.lstrip().startswith("#") for line in grid.split("\n")):
        return block_of(puzzle)
    return "\n".join(headers) + "\n" + grid + "\n"


def _text_parts(puzzle: Any) -> tuple[list[str], str]:
    """The header lines (genre, and the genre's ``puzzle_meta``) and the grid, of the puzzle as
    the genre's ``TEXT`` part gives it for the text format (the puzzle itself without one)."""
    from ..registry import GENRES

    g = GENRES[puzzle.genre]
    text_form = g.part("TEXT")
    if text_form is not None:
        puzzle = text_form(puzzle)
    header = [f"genre: {g.name}", *(f"{key}: {value}" for key, value in g.puzzle_meta(puzzle).items())]
    return header, g.render(puzzle)
