"""puzz.link URLs (the pzprjs engine's URL format), read and written through the genres' codecs.

Shape (pzprjs ``src/pzpr/parser.js``): ``https://puzz.link/p?<pid>/[<flag>/]<cols>/<rows>/<body>``.
Only the text after ``?`` counts, so ``http://pzv.jp/p.html?...`` and a bare ``pid/5/5/...``
read the same; a ``_edit``/``_play`` suffix on the pid only sets a viewing mode. Cells run row by
row.

A genre with a puzz.link form declares, in its record (``satgrid/genres/<name>/__init__.py``)::

    PUZZLINK = puzzlink.Codec(pids=("mypid",), body=puzzlink.NUMBERS,
                              read=lambda cells: MyPuzzle(cells.numbers(1, cells.rows * cells.cols)),
                              write=lambda puzzle: puzzle.grid)

:func:`decode` and :func:`encode` find the codec through the registry (the pid, the puzzle's
genre); nothing here knows a genre. The bodies (pzprjs ``src/variety-common/Encode.js``), each a
:class:`Body` value with its reader and its writer:

* :data:`NUMBERS` (``decodeNumber16``): ``0``-``9``/``a``-``f`` a value 0-15, ``-hh`` 16-255,
  ``+hhh`` 256-4095, ``=hhh`` 4096+, ``%hhh``/``@hhh`` 8192+, ``*hhhh`` 12240+, ``$hhhhh``
  77776+, ``.`` a ``?`` clue, ``g``-``z`` a run of 1-20 blank cells; :func:`numbers` makes
  pzprjs's other number bodies (``decodeNumber10``, a base-36 digit a cell) from parameters;
* :data:`FOUR` (``decode4Cell``, clues 0-4): ``0``-``4`` a clue, ``5``-``9`` a clue then one
  blank, ``a``-``e`` a clue then two blanks, ``g``-``z`` 1-20 blanks, ``.`` a ``?`` clue (``f``
  reads as one blank);
* :data:`CIRCLES` (``decodeCircle``): one base-27 digit (``0``-``9``, ``a``-``q``) for three
  cells, each a base-3 digit, the first cell the most significant: 0 blank, 1 and 2 the two
  kinds of circle (white and black); ``ceil(cells / 3)`` characters, no runs;
* :data:`ARROW_NUMBERS` (``decodeArrowNumber16``): a direction 0-4 and a number (one, two or
  three hex digits, by the direction's form) or ``?``, ``a``-``z`` runs of 1-26 blanks.

A body may come in parts, read one after the other (pzprjs's ``decodePzpr`` calling several
decoders, each on what the last left): a codec's ``body`` is then a tuple of :class:`Part`, its
``read`` gets :class:`Parts` and its ``write`` returns a value per part. The parts:

* :func:`cell_part`: a cell body above;
* :data:`ROOMS` (``decodeBorder``): the borders between cells as rooms, 5 borders a base-32
  character, the vertical borders then the horizontal ones (:func:`decode_borders`);
* :func:`room_numbers` (``decodeRoomNumber16``): one number a room in room order, the
  :data:`NUMBERS` syntax (:data:`ROOM_NUMBERS`);
* :func:`count_part` (``decodeStarCount``): a number and ``/`` before the rest.

So ``pid/C/R/<borders>`` is ``(ROOMS,)``, ``pid/C/R/<borders><room numbers>`` is ``(ROOMS,
room_numbers())`` and ``pid/C/R/k/<borders>`` is ``(count_part("count"), ROOMS)``.

Reading is strict where pzprjs is lenient: a body must describe exactly ``cols * rows`` cells and
hold no other characters, so a typo is an error at its column rather than a different puzzle.
Writing follows pzprjs's encoders character for character, with the canonical address.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Sequence, Union

from ..errors import ParseError, UnsupportedGenre
from ..grid import EdgeKey
from ..puzzle import Source
from ..reader import is_decimal, number
from ..rooms import borders, rooms_from_borders

CANONICAL = "https://puzz.link/p?"
MAX_SIDE = 1000
UNKNOWN = "?"
Cell = Union[int, str, None]  # a value, "?" or None (blank)
CellGrid = tuple[tuple[Cell, ...], ...]
#: ``fail(index in the body, message)``: the error a body reader raises.
Fail = Callable[[int, str], ParseError]

_PID = re.compile(r"([a-z][a-z0-9]*?)(?:_(edit|play|test|make))?")
_URL_START = re.compile(r"^(?:https?://\S|(?:p(?:\.html)?\?)?[a-z][a-z0-9_]*/)")


def looks_like_url(text: str) -> bool:
    """Whether a line is meant as a puzz.link URL (an address with ``?``, or a bare ``pid/...``)."""
    return _URL_START.match(text.strip()) is not None


# -- bodies ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Body:
    """One of pzprjs's ways of writing a grid of cells into a URL body, both ways.

    * ``decode(text, n, fail) -> (cells, end)``: the first ``n`` cells that ``text`` describes,
      each as ``(value, index)`` (the index in ``text`` of the character that gave the cell, for
      error columns), and the index where reading stopped: after the character that completed the
      ``n``-th cell, or ``len(text)`` when ``text`` describes fewer cells. Bad characters (and
      runs that go past the ``n`` cells) raise ``fail(index, message)``. Reading stops at ``n``
      cells so that a later body can follow (pzprjs's decoders leave the rest of the body to the
      next); :meth:`Codec.decode` requires the whole body to be used.
    * ``encode(values) -> text``: the body of a row-major list of cell values, as pzprjs's
      encoder writes it; a value the body cannot hold raises UnsupportedGenre.

    Values are ``None`` (a blank cell), an int, or ``"?"`` (:data:`UNKNOWN`, a clue whose value is
    not given), as far as the body has them.
    """

    name: str
    decode: Callable[[str, int, Fail], tuple[list[tuple[Cell, int]], int]]
    encode: Callable[[Sequence[Cell]], str]


def _run(ch: str) -> int | None:
    """``g``-``z``: a run of 1-20 blank cells."""
    return int(ch, 36) - 15 if "g" <= ch <= "z" else None


def _with_runs(pieces: Sequence[str | None], runs: tuple[str, int] = ("g", 20)) -> str:
    """Join the pieces of a body, runs of blank cells (``None``) as letters from ``runs[0]`` on
    (1, 2, ... blanks) before the next piece, at most ``runs[1]`` a letter, as pzprjs's number
    and 4-cell encoders do."""
    out: list[str] = []
    count, longest = 0, runs[1]

    def letter(k: int) -> str:
        return chr(ord(runs[0]) + k - 1)

    for piece in pieces:
        if piece is None:
            count += 1
        if count == 0:
            out.append(piece or "")
        elif piece is not None or count == longest:
            out.append(letter(count) + (piece or ""))
            count = 0
    if count:
        out.append(letter(count))
    return "".join(out)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
Wide = tuple[str, int, int]  # (prefix, digits after it, value of the first form)


def numbers(name: str, base: int = 16, singles: int = 16,
            wide: Sequence[Wide] = (("-", 2, 0), ("+", 3, 0), ("=", 3, 4096), ("%", 3, 8192)),
            read_only: Sequence[Wide] = (("@", 3, 8192), ("*", 4, 12240), ("$", 5, 77776)),
            unknown: str | None = ".", runs: tuple[str, int] | None = ("g", 20),
            blank: str | None = None) -> Body:
    """A body of numbers, one cell a token, as pzprjs's number decoders write them (the defaults
    are ``decodeNumber16``, :data:`NUMBERS`):

    * a digit of ``base`` is its value (written for values below ``singles``);
    * a ``wide`` prefix and its fixed count of base digits is ``first + the digits' value``;
      the writer takes the first prefix whose range holds a value; ``read_only`` prefixes are
      read, never written;
    * ``unknown`` is a ``?`` clue;
    * blanks: ``runs = (first letter, longest run)``, letters from ``first`` on being runs of
      1, 2, ... blank cells (``("g", 20)``: ``g``-``z``), or ``blank``, one character a blank cell.

    pzprjs's ``decodeNumber10`` is ``numbers(name, base=10, singles=10, wide=(), read_only=(),
    runs=("a", 26))``; its base-36 body (a digit a cell, ``-`` and two digits from 36 up) is
    ``numbers(name, base=36, singles=36, wide=(("-", 2, 0),),
    read_only=(), unknown="%", runs=None, blank=".")``.
    """
    digits = _DIGITS[:base]
    prefixes = {prefix: (width, first) for prefix, width, first in (*wide, *read_only)}
    largest = max([singles - 1, *(first + base ** width - 1 for _, width, first in wide)])
    kind = "hex" if base == 16 else f"base-{base}"

    def run_length(ch: str) -> int | None:
        if runs is None or len(ch) != 1:
            return None
        count = ord(ch) - ord(runs[0]) + 1
        return count if 1 <= count <= runs[1] else None

    def decode(body: str, n: int, fail: Fail) -> tuple[list[tuple[Cell, int]], int]:
        cells: list[tuple[Cell, int]] = []
        i = 0
        while i < len(body) and len(cells) < n:
            ch = body[i]
            if ch in digits:
                cells.append((digits.index(ch), i))
                i += 1
            elif ch in prefixes:
                width, first = prefixes[ch]
                text = body[i + 1: i + 1 + width]
                if len(text) < width or not set(text) <= set(digits):
                    raise fail(i, f"{ch!r} must be followed by {width} {kind} digits, found {text!r}")
                cells.append((first + int(text, base), i))
                i += 1 + width
            elif ch == unknown:
                cells.append((UNKNOWN, i))
                i += 1
            elif ch == blank:
                cells.append((None, i))
                i += 1
            elif (count := run_length(ch)) is not None:
                if len(cells) + count > n:
                    raise fail(i, f"a run of {count} blank cells goes past the {n} cells of the grid")
                cells += [(None, i)] * count
                i += 1
            else:
                raise fail(i, f"bad character {ch!r} in the puzzle body")
        return cells, i

    # a prefix's range ends where a later prefix with a larger first value starts (the room
    # number encoder switches from '%' to '*' at 12240, inside the '%' range)
    ends = [min([first + base ** width, *(f for _, _, f in wide[k + 1:] if f > first)])
            for k, (_, width, first) in enumerate(wide)]

    def write(v: Cell) -> str | None:
        if v is None:
            return blank
        if v == UNKNOWN and unknown is not None:
            return unknown
        if not isinstance(v, int) or v < 0:
            raise UnsupportedGenre(f"a puzz.link {name} body holds numbers 0 and up"
                                   + (" and '?'" if unknown is not None else "") + f", not {v!r}")
        if v < singles:
            return digits[v]
        for (prefix, width, first), end in zip(wide, ends):
            if first <= v < end:
                value, text = v - first, ""
                for _ in range(width):
                    value, digit = divmod(value, base)
                    text = digits[digit] + text
                return prefix + text
        raise UnsupportedGenre(f"a number {v} is too big for a puzz.link URL ({largest} at most)")

    def encode(cells: Sequence[Cell]) -> str:
        pieces = [write(v) for v in cells]
        if runs is None:
            return "".join(piece or "" for piece in pieces)
        return _with_runs(pieces, runs)

    return Body(name, decode, encode)


def decode_four(body: str, n: int, fail: Fail) -> tuple[list[tuple[Cell, int]], int]:
    """The 4-cell body (``decode4Cell``): clues 0-4 that may carry one or two blanks after them."""
    cells: list[tuple[Cell, int]] = []
    i = 0
    while i < len(body) and len(cells) < n:
        ch = body[i]
        if "0" <= ch <= "9" or "a" <= ch <= "e":
            v = int(ch, 16)
            blanks = 0 if v < 5 else 1 if v < 10 else 2
            cells.append((v - 5 * blanks, i))
            cells += [(None, i)] * min(blanks, n - len(cells))  # pzprjs: a clue in the last cell is 'a'-'e'
        elif ch == "f" or _run(ch) is not None:
            count = 1 if ch == "f" else _run(ch) or 0
            if len(cells) + count > n:
                raise fail(i, f"a run of {count} blank cells goes past the {n} cells of the grid")
            cells += [(None, i)] * count
        elif ch == ".":
            cells.append((UNKNOWN, i))
        else:
            raise fail(i, f"bad character {ch!r} in the puzzle body")
        i += 1
    return cells, i


def encode_four(cells: Sequence[Cell]) -> str:
    """pzprjs's ``encode4Cell``: a clue absorbs the one or two blanks after it when it can."""
    pieces: list[str | None] = []
    i, n = 0, len(cells)
    while i < n:
        v = cells[i]
        if isinstance(v, int) and 0 <= v <= 4:
            if i + 1 < n and cells[i + 1] is not None:
                pieces.append(format(v, "x"))
            elif i + 2 < n and cells[i + 2] is not None:
                pieces.append(format(v + 5, "x"))
                i += 1
            else:
                pieces.append(format(v + 10, "x"))
                i += 2
        elif v == UNKNOWN:
            pieces.append(".")
        elif v is None:
            pieces.append(None)
        else:
            raise UnsupportedGenre(f"a puzz.link 4-cell body holds clues 0-4 and '?', not {v!r}")
        i += 1
    return _with_runs(pieces)


_BASE27 = "0123456789abcdefghijklmnopq"


def decode_circles(body: str, n: int, fail: Fail) -> tuple[list[tuple[Cell, int]], int]:
    """The circle body (``decodeCircle``): a base-27 character for three cells, 0 blank, 1 or 2."""
    cells: list[tuple[Cell, int]] = []
    i = 0
    while i < len(body) and len(cells) < n:
        value = _BASE27.find(body[i])
        if value < 0:
            raise fail(i, f"bad character {body[i]!r} in the puzzle body (a circle body holds 0-9 and a-q)")
        for digit in (value // 9, value // 3 % 3, value % 3):
            if len(cells) < n:
                cells.append((digit or None, i))
            elif digit:
                raise fail(i, f"a circle past the {n} cells of the grid")
        i += 1
    return cells, i


def encode_circles(cells: Sequence[Cell]) -> str:
    """pzprjs's ``encodeCircle``: three cells a character; a last, partial group keeps its cells
    in the high digits."""
    out = []
    for start in range(0, len(cells), 3):
        value = 0
        for weight, v in zip((9, 3, 1), cells[start:start + 3]):
            if v not in (None, 1, 2):
                raise UnsupportedGenre(f"a puzz.link circle body holds 1 or 2 a cell (or nothing), not {v!r}")
            value += weight * (v or 0)
        out.append(_BASE27[value])
    return "".join(out)


_ARROW_DIGITS = "0123456789abcdef"


def decode_arrow_numbers(body: str, n: int, fail: Fail) -> tuple[list[tuple[Cell, int]], int]:
    """The arrow-number body (``decodeArrowNumber16``): a cell ``(direction, number)`` with the
    direction 0-4 (none, up, down, left, right) and a number or ``"?"``: ``d`` and a hex digit
    (0-15) or ``.`` (``?``); ``d + 5`` and two hex digits (16-255); ``-``, ``d`` and three hex
    digits (256-4095); ``a``-``z`` a run of 1-26 blank cells."""
    cells: list[tuple[Cell, int]] = []
    i = 0
    while i < len(body) and len(cells) < n:
        ch = body[i]
        if "0" <= ch <= "9" or ch == "-":
            wide = ch == "-"
            d = int(body[i + 1], 16) if wide and i + 1 < len(body) and body[i + 1] in "01234" else int(ch) % 5
            if wide and (i + 1 >= len(body) or body[i + 1] not in "01234"):
                raise fail(i, f"'-' must be followed by a direction 0-4, found {body[i + 1:i + 2]!r}")
            width = 3 if wide else 1 if ch <= "4" else 2
            start = i + (2 if wide else 1)
            text = body[start:start + width]
            if width == 1 and text == ".":
                cells.append(((d, UNKNOWN), i))  # type: ignore[arg-type]
            elif len(text) < width or not set(text) <= set(_ARROW_DIGITS):
                raise fail(i, f"{body[i:start]!r} must be followed by {width} hex digits, found {text!r}")
            else:
                cells.append(((d, int(text, 16)), i))  # type: ignore[arg-type]
            i = start + width
        elif "a" <= ch <= "z":
            count = int(ch, 36) - 9
            if len(cells) + count > n:
                raise fail(i, f"a run of {count} blank cells goes past the {n} cells of the grid")
            cells += [(None, i)] * count
            i += 1
        else:
            raise fail(i, f"bad character {ch!r} in the puzzle body")
    return cells, i


def encode_arrow_numbers(cells: Sequence[Cell]) -> str:
    """pzprjs's ``encodeArrowNumber16``: runs of up to 26 blanks as ``a``-``z``."""
    pieces: list[str | None] = []
    for v in cells:
        if v is None:
            pieces.append(None)
            continue
        d, k = v  # type: ignore[misc]
        if k == UNKNOWN:
            pieces.append(f"{d}.")
        elif isinstance(k, int) and 0 <= k < 16:
            pieces.append(f"{d}{k:x}")
        elif isinstance(k, int) and 16 <= k < 256:
            pieces.append(f"{d + 5}{k:x}")
        elif isinstance(k, int) and 256 <= k < 4096:
            pieces.append(f"-{d}{k:x}")
        else:
            raise UnsupportedGenre(f"a puzz.link arrow-number body holds numbers 0-4095 and '?', not {k!r}")
    return _with_runs(pieces, ("a", 26))


#: The number body (``decodeNumber16``): numbers 0-12287 (wider ones read), ``?``, runs of blanks.
NUMBERS = numbers("number")
#: The 4-cell body: clues 0-4 and ``?``, a clue absorbing one or two following blanks.
FOUR = Body("4-cell", decode_four, encode_four)
#: The circle body: 1 or 2 (the two kinds of circle) or blank, three cells a character.
CIRCLES = Body("circle", decode_circles, encode_circles)
#: The arrow-number body: ``(direction 0-4, number 0-4095 or "?")`` or blank.
ARROW_NUMBERS = Body("arrow-number", decode_arrow_numbers, encode_arrow_numbers)


# -- codecs ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cells:
    """A decoded body as a grid, handed to :attr:`Codec.read`: ``values[r][c]`` and, for errors,
    where each value came from (:meth:`error` names the URL's column)."""

    rows: int
    cols: int
    values: CellGrid
    source: Source
    columns: tuple[tuple[int, ...], ...]  # 1-based column in the line of each cell's character

    def error(self, r: int, c: int, message: str) -> ParseError:
        """A ParseError at the character that gave cell ``(r, c)``."""
        return ParseError(self.source.file, self.source.line, message, self.columns[r][c])

    def numbers(self, low: int, high: int, noun: str = "number", unknown: str | None = None) -> CellGrid:
        """:attr:`values`, once every number is ``low..high`` (else "``noun`` 26 is out of range
        1..25" at its column) and, when ``unknown`` (a message) is given, no cell is ``?``."""
        for r, row in enumerate(self.values):
            for c, v in enumerate(row):
                if v == UNKNOWN and unknown is not None:
                    raise self.error(r, c, unknown)
                if isinstance(v, int) and not low <= v <= high:
                    raise self.error(r, c, f"{noun} {v} is out of range {low}..{high}")
        return self.values


# -- bodies in parts ----------------------------------------------------------------------------------
@dataclass
class Parts:
    """The values of a body in parts (a codec whose ``body`` is a tuple of :class:`Part`), handed
    to :attr:`Codec.read`: ``parts[name]`` is a part's value; :meth:`error` names the URL column
    of one item of a part (a cell, a room), :meth:`cells` gives a cell part as :class:`Cells`."""

    rows: int
    cols: int
    source: Source
    values: dict[str, Any] = field(default_factory=dict)
    columns: dict[str, tuple[int, ...]] = field(default_factory=dict)  # 1-based, per item

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def error(self, name: str, item: int, message: str) -> ParseError:
        """A ParseError at the character that gave item ``item`` of part ``name``."""
        return ParseError(self.source.file, self.source.line, message, self.columns[name][item])

    def cells(self, name: str = "cells") -> Cells:
        """A cell part (:func:`cell_part`) as the grid :class:`Cells` (with its range checks)."""
        at, cols = self.columns[name], self.cols
        return Cells(self.rows, self.cols, self.values[name], self.source,
                     tuple(tuple(at[r * cols:(r + 1) * cols]) for r in range(self.rows)))


@dataclass(frozen=True)
class Part:
    """One piece of a body that holds several in a row (pzprjs's ``decodePzpr`` calling one
    decoder after the other on what the last one left, e.g. a border body then room numbers).

    * ``name``: the key of its value in :class:`Parts` and in what the codec's ``write`` returns;
    * ``decode(text, parts, fail) -> (value, places, end)``: ``text`` is the body from the
      part's first character on, ``parts`` what the parts before it decoded (a room-number part
      counts the rooms), ``places`` the index in ``text`` of the character behind each item of
      the value (for error columns), ``end`` the index after the part; ``fail(index, message)``
      is the error at an index of ``text``;
    * ``encode(value, rows, cols) -> text``, as pzprjs's encoder writes it.
    """

    name: str
    decode: Callable[[str, Parts, Fail], tuple[Any, Sequence[int], int]]
    encode: Callable[[Any, int, int], str]


def cell_part(body: Body, name: str = "cells") -> Part:
    """A cell body as a part: its value is the grid of cell values, row by row (:class:`Cells`
    through :meth:`Parts.cells`), written from rows of values."""
    def decode(text: str, parts: Parts, fail: Fail) -> tuple[CellGrid, list[int], int]:
        rows, cols = parts.rows, parts.cols
        n = rows * cols
        cells, end = body.decode(text, n, fail)
        if len(cells) < n:
            raise fail(len(text), f"the body describes {len(cells)} cells, a {cols}x{rows} grid has {n}")
        values = tuple(tuple(v for v, _ in cells[r * cols:(r + 1) * cols]) for r in range(rows))
        return values, [i for _, i in cells], end

    def encode(value: Sequence[Sequence[Cell]], rows: int, cols: int) -> str:
        return body.encode([v for row in value for v in row])

    return Part(name, decode, encode)


def count_part(name: str, low: int = 1, high: int | Callable[[int, int], int] = 1 << 30) -> Part:
    """A number and ``/`` before the rest of the body (pzprjs ``decodeStarCount``: the body up to
    its first ``/`` is the number; ``encodeStarCount`` writes ``k/``): a value ``low..high``
    (``high`` an int or a function of ``(rows, cols)``)."""
    def decode(text: str, parts: Parts, fail: Fail) -> tuple[int, list[int], int]:
        slash = text.find("/")
        if slash < 0:
            raise fail(0, f"the body starts with the {name} and '/' (e.g. '1/'), found no '/'")
        value = number(text[:slash]) if is_decimal(text[:slash]) else None
        if value is None:
            raise fail(0, f"the {name} {text[:slash]!r} is not a number")
        top = high(parts.rows, parts.cols) if callable(high) else high
        if not low <= value <= top:
            raise fail(0, f"the {name} {value} is out of range {low}..{top}")
        return value, [0], slash + 1

    def encode(value: int, rows: int, cols: int) -> str:
        return f"{value}/"

    return Part(name, decode, encode)


_BASE32 = "0123456789abcdefghijklmnopqrstuv"


def border_lengths(rows: int, cols: int) -> tuple[int, int]:
    """Characters of the two halves of a border body: the vertical borders, the horizontal ones."""
    return -(-(cols - 1) * rows // 5), -(-cols * (rows - 1) // 5)


def decode_borders(text: str, rows: int, cols: int, fail: Fail) -> tuple[frozenset[EdgeKey], int]:
    """pzprjs's ``decodeBorder`` (``src/variety-common/Encode.js``): the borders between cells,
    5 a base-32 character (``0``-``9``, ``a``-``v``), the first the most significant bit; first
    the ``(cols - 1) * rows`` vertical ones (row by row, left to right; the one between cells
    ``(r, c)`` and ``(r, c + 1)`` is ``("v", r, c + 1)``), then, from a fresh character, the
    ``cols * (rows - 1)`` horizontal ones (between ``(r, c)`` and ``(r + 1, c)``: ``("h", r + 1,
    c)``). The unused low bits of each half's last character are ignored, as pzprjs does.
    Returns the borders and the index after them."""
    vertical, horizontal = border_lengths(rows, cols)
    if len(text) < vertical + horizontal:
        raise fail(len(text), f"the border body of a {cols}x{rows} grid has {vertical + horizontal} "
                              f"characters, found {len(text)}")
    walls = set()
    for half, (start, count, key) in enumerate((
            (0, (cols - 1) * rows, lambda i: ("v", i // (cols - 1), i % (cols - 1) + 1)),
            (vertical, cols * (rows - 1), lambda i: ("h", i // cols + 1, i % cols)))):
        for i in range(count):
            at = start + i // 5
            value = _BASE32.find(text[at])
            if value < 0:
                raise fail(at, f"bad character {text[at]!r} in the border body (0-9 and a-v)")
            if value >> (4 - i % 5) & 1:
                walls.add(key(i))
    return frozenset(walls), vertical + horizontal


def encode_borders(walls: Collection[EdgeKey], rows: int, cols: int) -> str:
    """pzprjs's ``encodeBorder``: the inverse of :func:`decode_borders`, each half padded with
    zero bits to whole characters."""
    found = set(walls)
    out = []
    for count, key in (((cols - 1) * rows, lambda i: ("v", i // (cols - 1), i % (cols - 1) + 1)),
                       (cols * (rows - 1), lambda i: ("h", i // cols + 1, i % cols))):
        for start in range(0, count, 5):
            value = 0
            for i in range(start, start + 5):
                value = 2 * value + (i < count and key(i) in found)
            out.append(_BASE32[value])
    return "".join(out)


def rooms_part(name: str = "rooms") -> Part:
    """The border body as a part whose value is the rooms it draws (:data:`satgrid.rooms.Rooms`,
    canonical), written from rooms. Every room's item points at the body's first character."""
    def decode(text: str, parts: Parts, fail: Fail) -> tuple[Any, list[int], int]:
        walls, end = decode_borders(text, parts.rows, parts.cols, fail)
        rooms = rooms_from_borders(parts.rows, parts.cols, walls)
        return rooms, [0] * len(rooms), end

    def encode(value: Any, rows: int, cols: int) -> str:
        return encode_borders(borders(rows, cols, value), rows, cols)

    return Part(name, decode, encode)


#: pzprjs's ``decodeRoomNumber16``/``encodeRoomNumber16``: :data:`NUMBERS`'s syntax, one number a
#: room (no ``?``), ``*`` (12240-77775) and ``$`` (77776 on) written as well.
ROOM_NUMBERS = numbers("room number", wide=(("-", 2, 0), ("+", 3, 0), ("=", 3, 4096), ("%", 3, 8192),
                                            ("*", 4, 12240), ("$", 5, 77776)), read_only=(), unknown=None)


def room_numbers(body: Body = ROOM_NUMBERS, name: str = "room numbers", rooms: str = "rooms") -> Part:
    """One value a room, in room order (pzprjs's ``decodeRoomNumber16``: room by room, the rooms
    of the part ``rooms`` before it): a tuple of values (None: no number), written from one."""
    def decode(text: str, parts: Parts, fail: Fail) -> tuple[tuple[Cell, ...], list[int], int]:
        n = len(parts[rooms])
        cells, end = body.decode(text, n, fail)
        if len(cells) < n:
            raise fail(len(text), f"the room numbers describe {len(cells)} rooms, the borders draw {n}")
        return tuple(v for v, _ in cells), [i for _, i in cells], end

    def encode(value: Sequence[Cell], rows: int, cols: int) -> str:
        return body.encode(list(value))

    return Part(name, decode, encode)


#: The border body as rooms (:func:`rooms_part`), the usual first part of a genre with rooms.
ROOMS = rooms_part()


def any_size(rows: int, cols: int) -> str | None:
    """A codec's default size check: every size is fine (no refusal)."""
    return None


def never(puzzle: Any) -> str | None:
    """A codec's default refusal check: no puzzle is refused."""
    return None


@dataclass(frozen=True)
class Codec:
    """A genre's puzz.link form, one value for both ways (the genre's ``PUZZLINK`` part).

    * ``pids``: the pzprjs puzzle types read as this genre; the first is the one written
      (pzprjs's pid, then its other names such as the Kanpen one). No two genres share a pid.
    * ``body``: how the cells are written (:data:`NUMBERS`, :data:`FOUR`, :data:`CIRCLES`, or a
      :class:`Body` of the genre's own); or a body in parts, a tuple of :class:`Part` read one
      after the other (:func:`count_part`, :data:`ROOMS`, :func:`cell_part`,
      :func:`room_numbers`), e.g. ``(count_part("star count"), ROOMS)`` for ``k/<borders>``.
    * ``read(cells) -> puzzle``: the puzzle of a decoded grid (:class:`Cells`); it checks what
      the genre allows (:meth:`Cells.numbers` checks ranges and ``?``) and raises
      :meth:`Cells.error` at the offending cell. With parts, ``read(parts)`` gets the
      :class:`Parts` (errors through :meth:`Parts.error`).
    * ``write(puzzle) -> rows``: the cell values of a puzzle, row by row, for ``body.encode``;
      with parts, ``{part name: value}`` for every part.
    * ``size(rows, cols) -> message | None``: why a grid of that size cannot be this genre's
      (checked before the body is read; the error points at the body). Default: any size.
    * ``refuse(puzzle) -> message | None``: why a puzzle has no URL (UnsupportedGenre when
      writing), e.g. a shape puzz.link does not draw. Default: none.

    :meth:`decode` and :meth:`encode` do the work; the module's :func:`decode` and :func:`encode`
    pick the codec by pid or by the puzzle's genre.
    """

    pids: tuple[str, ...]
    body: Body | tuple[Part, ...]
    read: Callable[[Any], Any]
    write: Callable[[Any], Any]
    size: Callable[[int, int], str | None] = any_size
    refuse: Callable[[Any], str | None] = never

    @property
    def pid(self) -> str:
        """The pid written."""
        return self.pids[0]

    def decode(self, url: "Url", source: str = "<url>", line: int = 1) -> Any:
        """The puzzle of a split URL (:func:`split`)."""
        def fail(index: int, message: str) -> ParseError:
            return ParseError(source, line, message, url.body_col + index)

        problem = self.size(url.rows, url.cols)
        if problem is not None:
            raise fail(0, problem)
        found = Parts(url.rows, url.cols, Source(source, line))
        at = 0
        for part in self.parts:
            def fail_here(index: int, message: str, start: int = at) -> ParseError:
                return fail(start + index, message)

            value, places, end = part.decode(url.body[at:], found, fail_here)
            found.values[part.name] = value
            found.columns[part.name] = tuple(url.body_col + at + i for i in places)
            at += end
        if at < len(url.body):
            after = (f"the {url.rows * url.cols} cells of the grid" if isinstance(self.body, Body)
                     else f"the {self.parts[-1].name}")
            raise fail(at, f"extra characters after {after}")
        return self.read(found if isinstance(self.body, tuple) else found.cells())

    @property
    def parts(self) -> tuple[Part, ...]:
        """The body's parts (a single cell body is the part ``cells``)."""
        return self.body if isinstance(self.body, tuple) else (cell_part(self.body),)

    def encode(self, puzzle: Any) -> str:
        """The canonical URL of ``puzzle`` (pzprjs's encoder, the puzz.link address)."""
        check_sides(puzzle)
        problem = self.refuse(puzzle)
        if problem is not None:
            raise UnsupportedGenre(problem)
        written = self.write(puzzle)
        values = written if isinstance(self.body, tuple) else {"cells": written}
        body = "".join(part.encode(values[part.name], puzzle.rows, puzzle.cols) for part in self.parts)
        url = f"{CANONICAL}{self.pid}/{puzzle.cols}/{puzzle.rows}/{body}"
        return url if url[-1].isalnum() else url + "/"


def by_pid(part: str) -> dict[str, tuple[str, Any]]:
    """pid -> (genre name, codec), over the registry's genres with the part ``part`` (a codec
    with ``pids``); a pid two genres claim is an error in the registry (ValueError)."""
    from ..registry import with_part

    out: dict[str, tuple[str, Any]] = {}
    for g, codec in with_part(part):
        for pid in codec.pids:
            owner = out.setdefault(pid, (g.name, codec))[0]
            if owner != g.name:
                raise ValueError(f"{part} pid {pid!r} of genre {g.name} is already {owner}'s")
    return out


def codecs() -> dict[str, tuple[str, Codec]]:
    """pid -> (genre name, codec), over the registry's genres with a ``PUZZLINK`` part."""
    return by_pid("PUZZLINK")


def codec_of(genre: str) -> Codec:
    """The ``PUZZLINK`` codec of a genre; UnsupportedGenre when it has none."""
    from ..registry import GENRES

    codec = GENRES[genre].part("PUZZLINK")
    if codec is None:
        raise UnsupportedGenre(f"no puzz.link URL for genre {genre}")
    return codec


# -- URLs -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Url:
    """A URL split into its parts; ``body_col`` is the 1-based column of the body in its line."""

    pid: str
    genre: str
    cols: int
    rows: int
    body: str
    body_col: int


def _error(source: str, line: int, col: int, message: str) -> ParseError:
    return ParseError(source, line, message, col)


def split(text: str, source: str = "<url>", line: int = 1) -> Url:
    """The pid, size and body of a URL; errors name the column in ``text``."""
    lead = len(text) - len(text.lstrip())
    s = text.strip()
    q = s.find("?")
    start = q + 1 if s.startswith(("http://", "https://")) or 0 <= q < s.find("/") else 0
    if s.startswith(("http://", "https://")) and q < 0:
        raise _error(source, line, lead + 1, "a puzz.link URL needs '?' before the puzzle (…/p?pid/9/9/…)")
    fields: list[tuple[str, int]] = []  # (text, 1-based column)
    col = lead + start + 1
    for part in s[start:].split("/"):
        fields.append((part, col))
        col += len(part) + 1
    if len(fields) > 1 and fields[-1][0] == "":
        fields.pop()  # the trailing '/' writers add after a body that ends in a non-alphanumeric
    pid_text, pid_col = fields[0]
    m = _PID.fullmatch(pid_text)
    known = codecs()
    if m is None or m.group(1) not in known:
        written = dict.fromkeys(codec.pid for _, codec in known.values())
        raise _error(source, line, pid_col,
                     f"unknown puzz.link puzzle type {pid_text!r}; satgrid reads " + ", ".join(written))
    pid = m.group(1)
    rest = fields[1:]
    if rest and rest[0][0] and not is_decimal(rest[0][0]):
        rest = rest[1:]  # a pflag: satgrid's genres give it no meaning (pzprjs ignores it too)
    sizes = []
    for name in ("columns", "rows"):
        if not rest:
            raise _error(source, line, lead + len(s) + 1, f"the URL ends before its number of {name}")
        value, at = rest.pop(0)
        size = number(value)
        if size is None:
            raise _error(source, line, at, f"number of {name} {value!r} is not a number")
        if not 1 <= size <= MAX_SIDE:
            raise _error(source, line, at, f"number of {name} {value} is out of range 1..{MAX_SIDE}")
        sizes.append(size)
    body = "/".join(part for part, _ in rest)
    body_col = rest[0][1] if rest else col
    return Url(pid, known[pid][0], sizes[0], sizes[1], body, body_col)


def decode(text: str, source: str = "<url>", line: int = 1, genre: str | None = None) -> Any:
    """The puzzle a URL describes (``genre``, when given, must agree with its pid)."""
    url = split(text, source, line)
    if genre is not None and genre != url.genre:
        raise _error(source, line, url.body_col,
                     f"the URL holds a {url.genre} puzzle (pid {url.pid!r}) but the genre asked for is {genre}")
    return codecs()[url.pid][1].decode(url, source, line)


def check_sides(puzzle: Any) -> None:
    """Refuse a grid with a side longer than the URL and pzprv3 readers take (:data:`MAX_SIDE`)."""
    if max(puzzle.rows, puzzle.cols) > MAX_SIDE:
        raise UnsupportedGenre(f"a grid of {puzzle.rows} rows and {puzzle.cols} columns: puzz.link URLs and "
                               f"pzprv3 files are read up to {MAX_SIDE} a side")


def encode(puzzle: Any) -> str:
    """The canonical URL of ``puzzle`` (its genre's codec)."""
    return codec_of(puzzle.genre).encode(puzzle)
