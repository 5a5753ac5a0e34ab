"""The genre registry: a literal dict from genre name to the genre's functions.

A new genre = a folder ``satgrid/genres/<name>/`` (the record, ``checker.py``, optionally
``generator.py``), one line here, ``encodings/<genre>.md``, example puzzles in ``satgrid/data/``
and tests (``satgrid/genres/TEMPLATE/`` shows the whole shape).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from .errors import UnsupportedGenre
from .reader import split_grids
from .genres import akari
from .genres import fillomino
from .genres import heyawake
from .genres import hitori
from .genres import kurodoko
from .genres import lits
from .genres import masyu
from .genres import norinori
from .genres import nurikabe
from .genres import nurimisaki
from .genres import slitherlink
from .genres import starbattle
from .genres import sudoku
from .genres import yajilin


def cell_differences(puzzle: Any, a: Any, b: Any) -> list[tuple[int, int]]:
    """The cells where two solutions written row by row (a value per cell) differ."""
    return [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if a[r][c] != b[r][c]]


def rows_json(puzzle: Any, solution: Any) -> list:
    """A solution written row by row (strings of cell marks) as a JSON list of rows."""
    return list(solution)


def no_meta(puzzle: Any) -> dict[str, str]:
    """No header keys beyond the grid."""
    return {}


@dataclass(frozen=True)
class Genre:
    """What the pipeline needs of a genre: parse -> encode -> decode -> check -> render."""

    name: str
    summary: str
    split: Callable[..., Any]
    parse: Callable[..., Any]
    #: (record, puzzle) -> the solution in a block's ``solution:`` section, or None; ParseError.
    parse_solution: Callable[..., Any]
    encode: Callable[..., Any]
    cache_key: Callable[..., Any]
    decode: Callable[..., Any]
    check: Callable[..., list[str]]
    render: Callable[..., str]
    solution_json: Callable[..., Any]
    puzzle_json: Callable[..., Any]
    differences: Callable[..., list]
    examples: str
    #: JSON input: the inverse of puzzle_json (with puzzle_meta's keys) and of solution_json.
    puzzle_meta: Callable[..., dict[str, str]]
    puzzle_from_json: Callable[..., Any]
    solution_from_json: Callable[..., Any]
    #: (variables, clauses) an encoding of a rows x cols grid is expected to have.
    estimate: Callable[..., tuple[int, int]]
    #: The genre's module: optional parts are read from it by name (:data:`OPTIONAL`).
    module: ModuleType | None = None

    @classmethod
    def from_module(cls, module: ModuleType) -> "Genre":
        """The record of a genre module; ``split``, ``solution_json``, ``differences`` and
        ``puzzle_meta`` may be left out (:func:`~satgrid.reader.split_grids`, :func:`rows_json`,
        :func:`cell_differences`, no header keys)."""
        return cls(
            module.NAME, module.SUMMARY, getattr(module, "split", split_grids), module.parse,
            module.parse_solution,
            module.encode, module.cache_key, module.decode, module.check, module.render,
            getattr(module, "solution_json", rows_json), module.puzzle_json,
            getattr(module, "differences", cell_differences), module.EXAMPLES,
            getattr(module, "puzzle_meta", no_meta), module.puzzle_from_json, module.solution_from_json,
            module.estimate, module,
        )

    def part(self, name: str, default: Any = None) -> Any:
        """An optional part of the genre's record (one of :data:`OPTIONAL`), or ``default``."""
        assert name in OPTIONAL, name
        return getattr(self.module, name, default)


#: The optional parts of a genre record, module-level names in ``satgrid/genres/<name>/``:
#:
#: * ``ALIASES``: other names of the genre (``("loopy", "slither")``);
#: * ``SUFFIXES``: file name endings that mean the genre's text format (``(".sdk",)``);
#: * ``PUZZLINK``, ``PZPRV3``, ``TATHAM``, ``IPUZ``, ``PUZZLEKIT``: the genre's codec for that
#:   format (the value types live in ``satgrid/formats/``);
#: * ``DRAW``: the SVG drawing from generic parts (:mod:`satgrid.render_svg`);
#: * ``STATE``: the partial-solution format of ``hint`` (:mod:`satgrid.grading`);
#: * ``OPTIONS``: the genre's own command-line options (:mod:`satgrid.cli`);
#: * ``SAMPLES``: golden samples (puzzle text, expected status, expected solution);
#: * ``BLANK``, ``READ_CLUES``, ``SAMPLE``: what the generic generator needs
#:   (:mod:`satgrid.generators.generic`): the puzzle of a size without clues, the puzzle with
#:   every clue a solution supports, or a sampler of puzzles with every clue;
#: * ``TEXT``: ``puzzle -> puzzle``, the puzzle as satgrid's text format writes it when that
#:   differs from the puzzle itself (a symbol set the text grid cannot hold), for
#:   :func:`satgrid.formats.text_of`;
#: * ``GUESS``: ``(record) -> bool``, whether a text without a genre header is in the genre's
#:   own format (:func:`satgrid.api.load_text` takes the one genre that claims it);
#: * ``RULES``: the genre's local deduction rules (``satgrid rules``): ``default()`` the shipped
#:   rule file, ``load(path)`` its rules, ``prove(rules, source, margin)`` a proof with ``text()``,
#:   ``to_json()``, ``summary()`` and ``refuted``, ``grade(puzzle, rules, loop_avoidance)`` a grade
#:   with ``line()``, ``to_json()``, ``solution`` and ``status``, ``svg(verdict)`` a refuted
#:   rule's counterexample drawn;
#: * ``CANDIDATES``: ``(puzzle, solution) -> {clue key: value}``, every clue the genre allows
#:   that the puzzle lacks and the solution supports, in the keys and values of
#:   ``puzzle.clues()`` / ``puzzle.with_clues()``, no two binding each other (what
#:   :mod:`satgrid.repair` may add; ``satgrid.puzzle.clues_added`` makes it from ``READ_CLUES``);
#:   a genre whose puzzle has no clue to add declares None;
#: * ``CLUE_WORDS``: ``value -> str``, a clue's value in words where its plain ``str`` is not
#:   ("a black pearl"), for the clues a repair names;
#: * ``REMOVED_CLUE``: for a genre whose encoding depends on its clues (``cache_key``), a clue
#:   value that, given at a key on the encoding of a puzzle holding a clue there, states that
#:   puzzle with the clue removed and every other clue on (:class:`satgrid.live.Editor` then
#:   re-checks a removal on the solver it has);
#: * ``CLUE_READS``: ``(puzzle, solution, key) -> parts``, the parts (cells or edges, as
#:   :func:`satgrid.ambiguity.part_keys` names them) whose values in ``solution`` decide the clue
#:   at ``key``: every solution that gives them the same values obeys that clue. For a clue with
#:   no broken clauses, :class:`satgrid.live.Editor` asks for the other solutions of a puzzle with
#:   that clue removed among those that differ there.
#: * ``WITNESSES``: ``(puzzle, solution) -> [set of clue keys, ...]``, other solutions the genre
#:   finds without SAT by small changes of ``solution`` that provably keep every rule, each as
#:   exactly the clues it breaks (it keeps every other clue): an audit takes a set of one clue as
#:   proof that the clue is needed, greedy deletion a set whose other clues are gone
#:   (:meth:`satgrid.queries.PuzzleQueries.redundant_clues`, ``minimal_clue_set``). A set must
#:   never stand for a solution that does not exist.
#:
#: A ``generator`` submodule (``satgrid/genres/<name>/generator.py``) is the genre's own
#: generator; without one, the generic generator serves a genre that has those parts.
OPTIONAL = ("ALIASES", "SUFFIXES", "PUZZLINK", "PZPRV3", "TATHAM", "IPUZ", "PUZZLEKIT", "DRAW",
            "STATE", "OPTIONS", "SAMPLES", "BLANK", "READ_CLUES", "SAMPLE", "TEXT", "GUESS",
            "RULES", "CANDIDATES", "CLUE_WORDS", "REMOVED_CLUE", "CLUE_READS", "WITNESSES")


GENRES: dict[str, Genre] = {
    "sudoku": Genre.from_module(sudoku),
    "slitherlink": Genre.from_module(slitherlink),
    "nurikabe": Genre.from_module(nurikabe),
    "hitori": Genre.from_module(hitori),
    "masyu": Genre.from_module(masyu),
    "kurodoko": Genre.from_module(kurodoko),
    "akari": Genre.from_module(akari),
    "yajilin": Genre.from_module(yajilin),
    "norinori": Genre.from_module(norinori),
    "starbattle": Genre.from_module(starbattle),
    "fillomino": Genre.from_module(fillomino),
    "lits": Genre.from_module(lits),
    "heyawake": Genre.from_module(heyawake),
    "nurimisaki": Genre.from_module(nurimisaki),
}


def aliases_of(genres: dict[str, Genre]) -> dict[str, str]:
    """Alias -> genre name, from each genre's ``ALIASES`` part (lower case). An alias that is
    another genre's name, or that two genres claim, is an error in the registry (ValueError)."""
    out: dict[str, str] = {}
    for g in genres.values():
        for alias in g.part("ALIASES", ()):
            key = alias.lower()
            owner = key if key in genres else out.setdefault(key, g.name)
            if owner != g.name:
                raise ValueError(f"alias {alias!r} of genre {g.name} is already {owner}'s")
    return out


#: Other names people use for a genre (from the genres' ``ALIASES``).
ALIASES = aliases_of(GENRES)


def with_part(name: str) -> list[tuple[Genre, Any]]:
    """``(genre, part)`` for every genre that has the optional part ``name``, in registry order:
    how :mod:`satgrid.formats` finds the genres' codecs."""
    return [(g, part) for g in GENRES.values() if (part := g.part(name)) is not None]


def genre(name: str) -> Genre:
    """The genre called ``name`` (or one of its aliases)."""
    key = ALIASES.get(name.lower(), name.lower())
    try:
        return GENRES[key]
    except KeyError:
        raise UnsupportedGenre(f"unknown genre {name!r}; known genres: {', '.join(GENRES)}") from None
