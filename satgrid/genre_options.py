"""Command-line options a genre declares for itself: its record's ``OPTIONS``, a tuple of
:class:`Option`. The CLI adds each to the commands it names (an option several genres declare
is one flag), so no command lists a genre's options by hand.

* On ``generate`` the option's value, read by ``parse``, is a keyword argument of the genre's
  generator (``--ratios 33/67/0`` -> ``generate(..., ratios=(33, 67, 0))``); given for another
  genre it is bad usage. ``--level`` is the driver's level (:mod:`satgrid.generators`,
  ``resolve_level``), declared by the genres whose generator has levels.
* On the commands that read puzzles (:data:`INPUT`) the value is a header line of the puzzle
  text (``--box 2x3`` -> ``box: 2x3``), which the genre's parser reads and checks.

This module imports nothing of satgrid's, so a genre's record can import it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

#: The commands that read puzzles: a genre's option for them is a header of the puzzle text.
INPUT = ("solve", "audit", "encode", "decode", "convert", "render", "grade", "hint", "repair")
#: The generator command: a genre's option for it is a keyword of the genre's generator.
GENERATE = ("generate",)


@dataclass(frozen=True)
class Option:
    """One command-line option of a genre."""

    #: The flag, ``--ratios``; the value's name (generator keyword, header key) drops the dashes
    #: and writes inner ``-`` as ``_``.
    flag: str
    #: The help line (a genre's option may name its genre).
    help: str
    #: The commands it is an option of (:data:`INPUT`, :data:`GENERATE`, or some of them).
    commands: tuple[str, ...]
    #: ``generate``: the generator keyword's value from the flag's text; a ValueError says what is
    #: wrong with the text (bad usage). Unused for :data:`INPUT` (the parser checks headers).
    parse: Callable[[str], Any] = str
    #: The value's placeholder in the help (``A/B/C``).
    metavar: str | None = None
    #: A flag without a value (:data:`GENERATE` only): given, the generator keyword is True.
    switch: bool = False

    @property
    def name(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


def whole_numbers(sep: str, count: int, example: str) -> Callable[[str], tuple[int, ...]]:
    """A parser of ``count`` non-negative whole numbers joined by ``sep`` (``33/33/34``)."""

    def parse(text: str) -> tuple[int, ...]:
        try:
            found = tuple(int(x) for x in text.split(sep))
        except ValueError:
            found = ()
        if len(found) != count or min(found) < 0:
            raise ValueError(f"{text!r} is not {count} numbers joined by {sep!r} (e.g. {example})")
        return found

    return parse


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A parser of one whole number in ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise ValueError(f"{value} is not in the range {low}<=x<={high}")
        return value

    return parse
