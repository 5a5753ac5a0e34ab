"""Simon Tatham's game IDs (``<params>:<description>``), read and written through the genres'
codecs.

A game ID is ``<params>:<description>`` (the puzzles' source, each game's ``.c`` file);
``<params>#<seed>`` is a random seed that only the game itself can expand into a puzzle. Params
start with ``W[xH]`` and may go on with flags (letters, each perhaps with digits). Most games write
their descriptions run-length coded: a lowercase letter is a run of blank cells (``a`` = 1 ...
``z`` = 26), other characters are clues (:func:`decode_runs`, :func:`encode_runs`,
:func:`run_cells`).

A genre with a Tatham game declares ``TATHAM = tatham.Codec(...)``: the game's name and program,
which params and signs are its own, whether a description fits its grid, and its reader and
writer. Which game an ID belongs to, over the genres with a codec (:func:`game_of`):

1. a genre asked for (``--genre``, a ``genre:`` line) decides;
2. else the only game whose params the ID has;
3. else the game whose sign the ID carries (signs in the params, of games that always write
   them, first);
4. a seed that several games could own is an error (only the game can expand it);
5. else the only game whose grid the description fits exactly; several is an error naming them;
6. else the game declared the ``fallback`` (its errors are the ones reported), or an error.

Never a guess: an ID two games read alike is an error that says how to tell them apart.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..errors import ParseError, UnsupportedGenre
from ..reader import is_decimal

#: ``WIDTH[xHEIGHT][FLAGS](:|#)REST``. The flags start with a letter, so no digit can belong to both
#: a size and the flags: every backtracking step fails at once and matching is linear.
_ID = re.compile(r"^([0-9]+)(?:x([0-9]+))?((?:[a-z][a-z0-9]*)?)([:#])(.*)$")
MAX_SIZE = 1000


def looks_like_id(text: str) -> bool:
    """Whether a line is meant as a Tatham game ID or seed (``3x3:...``, ``10x10t0dh#123``)."""
    return _ID.match(text.strip()) is not None


@dataclass(frozen=True)
class GameId:
    """A game ID split into its parts, with the columns errors name."""

    text: str  # the line as given
    source: str
    line: int
    match: re.Match

    @classmethod
    def of(cls, text: str, source: str = "<game id>", line: int = 1) -> "GameId":
        m = _ID.match(text.strip())
        if m is None:
            raise ParseError(source, line, "not a game ID (expected PARAMS:DESCRIPTION, e.g. 3x3:a2e9...)",
                             len(text) - len(text.lstrip()) + 1)
        return cls(text, source, line, m)

    @property
    def lead(self) -> int:
        """The leading whitespace before the ID."""
        return len(self.text) - len(self.text.lstrip())

    @property
    def id(self) -> str:
        return self.text.strip()

    @property
    def width(self) -> str:
        return self.match.group(1)

    @property
    def height(self) -> str | None:
        return self.match.group(2)

    @property
    def flags(self) -> str:
        return self.match.group(3)

    @property
    def seed(self) -> bool:
        """A random-seed ID (``#``), which only the game can expand."""
        return self.match.group(4) == "#"

    @property
    def desc(self) -> str:
        return self.match.group(5)

    @property
    def params(self) -> str:
        """The params as written: ``3x3``, ``10x10t0dh``."""
        return self.id[:self.match.end(3)]

    def column(self, group: int, offset: int = 0) -> int:
        """The 1-based column of ``match.group(group)`` (plus ``offset``) in the line."""
        return self.lead + self.match.start(group) + offset + 1

    def error(self, message: str, column: int | None = None) -> ParseError:
        return ParseError(self.source, self.line, message, column)


def _never(game_id: GameId) -> bool:
    return False


def _nothing(game_id: GameId) -> None:
    return None


@dataclass(frozen=True)
class Codec:
    """A genre's Tatham game, one value for both ways (the genre's ``TATHAM`` part).

    * ``game``, ``program``: the game's name and program (as the sgt-puzzles package names it);
    * ``params(id) -> bool``: the params are a possible params string of the game;
    * ``fits(id) -> bool``: the description describes exactly the cells of the grid the params
      give (:func:`run_cells` counts);
    * ``decode(id) -> puzzle``, ``encode(puzzle) -> str``;
    * ``signs(id) -> bool``: the ID carries something only this game writes (default: nothing);
    * ``marked``: the game always writes its sign in the params (a tiling flag, say), so an ID
      without it is the game's only when nothing else fits;
    * ``hint``: how to write the game's IDs so that they are told apart, with ``{width}`` and
      ``{height}`` (``"write <game> IDs with <flag> ({width}x{height}<flag>:...)"``);
    * ``fallback``: an ID whose params this game has but whose description fits no game's grid
      is read as this game's, so that its reader reports what is wrong (one genre at most: the
      game whose IDs carry no sign at all);
    * ``check(id)``: raise for params the game has but satgrid does not solve (variants, other
      tilings), once the ID is known to be this game's.
    """

    game: str
    program: str
    params: Callable[[GameId], bool]
    fits: Callable[[GameId], bool]
    decode: Callable[[GameId], Any]
    encode: Callable[[Any], str]
    signs: Callable[[GameId], bool] = _never
    marked: bool = False
    hint: str = ""
    fallback: bool = False
    check: Callable[[GameId], None] = _nothing


def codecs() -> dict[str, Codec]:
    """Genre name -> codec, over the registry's genres with a ``TATHAM`` part."""
    from ..registry import with_part

    return {g.name: codec for g, codec in with_part("TATHAM")}


def _named(games: dict[str, Codec], joint: str) -> str:
    return joint.join(f"{codec.game} ({name})" for name, codec in games.items())


def game_of(text: str, genre: str | None, source: str, line: int) -> str:
    """The genre whose game an ID line is (see the module's rules); errors for seeds, variants
    and IDs that several games read say why."""
    gid = GameId.of(text, source, line)
    games = codecs()
    if genre is not None:
        if genre not in games:
            raise gid.error(f"a Tatham game ID is a {_named(games, ' or ')} puzzle, not {genre}", gid.lead + 1)
        chosen = genre
    else:
        chosen = _choose(gid, games)
    codec = games[chosen]
    codec.check(gid)
    if gid.seed:
        raise gid.error(f"{gid.id!r} is a random-seed ID: only the game can expand it into a puzzle "
                        f"({codec.program} --generate 1 {gid.id!r} prints its game ID; in the game, enter the "
                        "seed with Game > Random Seed... and copy the ID from Game > Specific...)", gid.column(4))
    return chosen


def _choose(gid: GameId, games: dict[str, Codec]) -> str:
    own = {name: codec for name, codec in games.items() if codec.params(gid)}
    if len(own) == 1:
        return next(iter(own))
    if not own:
        raise gid.error(f"params {gid.params!r} are not those of {_named(games, ' or ')}", gid.lead + 1)
    signed = sorted((name for name, codec in own.items() if codec.signs(gid)), key=lambda n: not own[n].marked)
    if signed:
        return signed[0]
    if gid.seed:
        raise gid.error(f"random-seed ID {gid.id!r}: only the game can expand a seed, and this one could be "
                        f"{' or '.join(c.game for c in own.values())}; paste the game ID (PARAMS:DESC)",
                        gid.column(4))
    fits = {name: codec for name, codec in own.items() if codec.fits(gid)}
    if len(fits) == 1:
        return next(iter(fits))
    if len(fits) > 1:
        hints = "".join(codec.hint.format(width=gid.width, height=gid.height or gid.width) + " or "
                        for codec in fits.values() if codec.hint)
        games = _named(fits, " and ") if len(fits) == 2 else _named(fits, ", ")
        raise gid.error(f"{gid.params!r} fits {'both' if len(fits) == 2 else 'all of'} {games}: {hints}pass "
                        f"--genre {'|'.join(fits)}", gid.lead + 1)
    fallback = [name for name, codec in own.items() if codec.fallback]
    if len(fallback) == 1:
        return fallback[0]
    raise gid.error(f"{gid.id!r} is no {_named(own, ' or ')} game ID: its description fits none of their grids",
                    gid.lead + 1)


# -- run-length descriptions ----------------------------------------------------------------------
def run_cells(desc: str, digits: bool, separator: str = "") -> tuple[int, int | None]:
    """How many cells a run-length description describes, and the index of the first character
    that none of its tokens use (None when all are used): ``a``-``z`` a run of 1-26 blanks; a
    number is one cell, or with ``digits`` each digit is a cell; ``separator`` characters part
    two numbers."""
    count = 0
    for m in re.finditer(r"[0-9]+|[a-z]|.", desc):
        token = m.group()
        if is_decimal(token):
            count += len(token) if digits else 1
        elif "a" <= token <= "z":
            count += ord(token) - ord("a") + 1
        elif token not in separator or not separator:
            return count, m.start()
    return count, None


def decode_runs(desc: str, cells: int, fail: Callable[[int, str], ParseError], grid: str,
                separator: str = "", what: str = "the description") -> list[tuple[str | None, int]]:
    """The ``cells`` cells of a run-length description with multi-digit numbers, each as
    ``(number as written or None, index in desc)``; ``grid`` names the grid in errors (``"a 9x9 grid"``) and
    ``what`` the description (``"a <game> description"``), which ``fail(index, message)`` raises:
    characters after the last cell, a run past it, a bad character, too few cells (at the end)."""
    out: list[tuple[str | None, int]] = []
    i = 0
    while i < len(desc):
        ch = desc[i]
        if len(out) >= cells:
            raise fail(i, f"the description goes on after the {cells} cells of {grid}")
        if "a" <= ch <= "z":
            run = ord(ch) - ord("a") + 1
            if len(out) + run > cells:
                raise fail(i, f"a run of {run} blanks goes past the {cells} cells of {grid}")
            out += [(None, i)] * run
            i += 1
        elif is_decimal(ch):
            j = i
            while j < len(desc) and is_decimal(desc[j]):
                j += 1
            out.append((desc[i:j], i))
            i = j
        elif separator and ch in separator:
            i += 1
        else:
            raise fail(i, f"bad character {ch!r} in {what}")
    if len(out) != cells:
        raise fail(len(desc), f"the description has {len(out)} cells, {grid} has {cells}")
    return out


def encode_runs(values: Iterable[int | None], separator: str = "") -> str:
    """The run-length description of values in reading order: ``a``-``z`` for runs of 1-26
    blanks (None), a value as its decimal, ``separator`` between two adjacent values."""
    out: list[str] = []
    run, after_value = 0, False
    for v in [*values, -1]:
        if v is None:
            run += 1
            continue
        if run:
            while run > 0:
                step = min(run, 26)
                out.append(chr(ord("a") - 1 + step))
                run -= step
        elif after_value and separator and v >= 0:
            out.append(separator)
        if v >= 0:
            out.append(str(v))
            after_value = True
    return "".join(out)


# -- the module's entry points --------------------------------------------------------------------
def decode(text: str, source: str = "<game id>", line: int = 1, genre: str | None = None) -> Any:
    """The puzzle of a game ID (the game :func:`game_of` finds)."""
    chosen = game_of(text, genre, source, line)
    return codecs()[chosen].decode(GameId.of(text, source, line))


def encode(puzzle: Any) -> str:
    """The Tatham game ID of ``puzzle`` (its genre's codec)."""
    games = codecs()
    if puzzle.genre not in games:
        raise UnsupportedGenre(f"no Tatham game ID for genre {puzzle.genre} ({_named(games, ', ')})")
    return games[puzzle.genre].encode(puzzle)
