"""Puzzle generators: a literal dict from genre name to ``generate(rows, cols, rng, *, flavour,
**options) -> puzzle``, and the driver that makes, checks and reports a batch of puzzles.

A genre's generator is its ``satgrid/genres/<name>/generator.py``. Besides ``generate`` it may
define hooks, which the driver calls when present:

* ``check_options(rows, cols, **genre_options)``: refuse a request no attempt can serve
  (SatgridError); default: every request is tried.
* ``resolve_level(level, flavour) -> int``: the generator has difficulty levels. It checks a
  level (or the level a flavour stands for) and returns the level made; ``generate`` then takes
  ``level=`` and ``flavour=`` (default "hard"). Without it a level is refused, and ``generate``
  takes ``flavour=`` only when one is asked for.
* ``promises_minimal(level, flavour, **genre_options) -> bool``: whether the puzzle is
  clue-minimal (the audit's ``minimal``) by construction for these settings; default: every
  flavour but "normal".
* ``report(puzzle) -> dict``: extra fields of the puzzle's report (JSON keys; text output
  writes ``_`` as ``-``); default: none.
* ``OPTIONS``: the :class:`satgrid.api.Options` it runs with unless the caller names some.

Every puzzle the driver hands out has passed :func:`satgrid.api.solve` with ``audit=True``: a
solution that passes the genre's independent checker, status "unique", and, where the generator
promises it (``promises_minimal``), no redundant clue. A puzzle that fails is an internal error
(:class:`GenerationFailed`), never printed.

Seeds: puzzle ``i`` of a run with seed ``S`` is made from its own seed, ``S`` itself for the first
puzzle and a hash of ``(S, i)`` for the others; each puzzle reports its seed, and ``--seed`` with
that seed and ``--count 1`` makes that puzzle again.
"""
from __future__ import annotations

import dataclasses
import gc
import hashlib
import importlib
import importlib.util
import multiprocessing
import random
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .. import api
from ..errors import LimitReached, SatgridError, UnsupportedGenre
from ..reader import Limits
from ..registry import GENRES
from . import generic


def _generator(name: str):
    """The genre's ``generator`` module (``satgrid/genres/<name>/generator.py``) if it has one
    (import errors inside it are not hidden), else the generic generator if the genre's record
    supports it (:mod:`.generic`), else None."""
    module = f"satgrid.genres.{name}.generator"
    if importlib.util.find_spec(module) is None:
        return generic.for_genre(GENRES[name])
    return importlib.import_module(module)


#: Each genre's generator module (the genres that have one).
MODULES = {name: module for name in GENRES if (module := _generator(name)) is not None}
GENERATORS: dict[str, Callable[..., Any]] = {name: module.generate for name, module in MODULES.items()}

FLAVOURS = ("normal", "hard")


class GenerationFailed(SatgridError):
    """Internal error: a generated puzzle failed its check (not unique, not minimal)."""


def derive_seed(seed: int, index: int) -> int:
    """The seed of puzzle ``index`` of a run with ``seed`` (``seed`` itself for the first)."""
    if index == 0:
        return seed
    digest = hashlib.sha256(f"satgrid/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def promises_minimal(genre: str, level: int | None, flavour: str | None,
                     genre_options: dict[str, Any] | None = None) -> bool:
    """Does the generator promise a clue-minimal puzzle for these settings? (Its
    ``promises_minimal`` hook, given the genre's options; by default every flavour but "normal"
    does.)"""
    hook = getattr(MODULES.get(genre), "promises_minimal", None)
    if hook is not None:
        return hook(level, flavour or "hard", **(genre_options or {}))
    return flavour != "normal"


def has_levels(genre: str) -> bool:
    """Does the genre's generator have difficulty levels (a ``resolve_level`` hook)?"""
    return hasattr(MODULES.get(genre), "resolve_level")


@dataclass
class GeneratedPuzzle:
    """One generated puzzle and its audit."""

    result: api.Result
    seed: int
    level: int | None
    flavour: str | None
    grade: int | None = None
    generate_s: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def puzzle(self) -> Any:
        return self.result.puzzle

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        out["minimal"] = self.result.minimal
        out["grade"] = self.grade
        out["seed"] = self.seed
        if self.level is not None:
            out["level"] = self.level
        if self.flavour is not None:
            out["flavour"] = self.flavour
        out.update(self.extra)
        out["generate_s"] = round(self.generate_s, 6)
        return out


def check_request(genre: str, rows: int, cols: int, level: int | None, flavour: str | None,
                  genre_options: dict[str, Any] | None = None, limits: Limits = Limits()) -> None:
    """Refuse a request the generator cannot serve, with a message naming what would work: no
    generator, an empty grid, a grid or encoding over ``limits``, or options the genre's
    ``check_options`` finds impossible."""
    if genre not in GENERATORS:
        raise UnsupportedGenre(f"no generator for {genre!r}; generators: {', '.join(GENERATORS)}")
    if rows < 1 or cols < 1:
        raise SatgridError(f"size {rows}x{cols} (rows x columns) is empty")
    problem = limits.cells_error(rows, cols) or api.encoding_error(genre, rows, cols, limits)
    if problem:
        raise SatgridError(problem)
    module = MODULES[genre]
    if hasattr(module, "check_options"):
        module.check_options(rows, cols, **(genre_options or {}))
    if level is not None and flavour is not None:
        raise SatgridError("give a level or a flavour, not both")
    if flavour is not None and flavour not in FLAVOURS:
        raise SatgridError(f"flavour must be one of {', '.join(FLAVOURS)}, not {flavour!r}")
    if has_levels(genre):
        module.resolve_level(level, flavour or "hard")
    elif level is not None:
        raise SatgridError(f"{genre} has flavours ({', '.join(FLAVOURS)}), not levels")


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: generation makes many short-lived lists (clauses,
    models) that reference counting frees, and full collections walking the long-lived ones
    (cached encodings, the audit's solvers) cost generation a visible share of its time
    (figures: encodings/solver.md, "Figures moved out of the code"). Collection resumes
    afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def default_options(genre: str) -> api.Options:
    """The options a generator uses unless the caller gives some (its module's ``OPTIONS``:
    the solver measured fastest for its queries), else the library's."""
    return getattr(MODULES.get(genre), "OPTIONS", api.Options())


def generate_one(genre: str, rows: int, cols: int, seed: int, level: int | None = None,
                 flavour: str | None = None, options: api.Options | None = None,
                 genre_options: dict[str, Any] | None = None, limits: Limits = Limits()) -> GeneratedPuzzle:
    """Make the puzzle of ``seed``, audit it, grade it; raise :class:`GenerationFailed` if the
    audit disagrees with what the generator promises. ``options`` (default: the generator's,
    :func:`default_options`) serve both the generator and the audit."""
    made = make_timed(genre, rows, cols, seed, level, flavour, options, genre_options, limits)
    return audit_generated(made, options)


@dataclass
class Made:
    """A generated puzzle before its audit: the request it answers and its generation time."""

    genre: str
    rows: int
    cols: int
    seed: int
    level: int | None
    flavour: str | None
    puzzle: Any
    generate_s: float
    genre_options: dict[str, Any] = field(default_factory=dict)


def make_timed(genre: str, rows: int, cols: int, seed: int, level: int | None = None,
               flavour: str | None = None, options: api.Options | None = None,
               genre_options: dict[str, Any] | None = None, limits: Limits = Limits()) -> Made:
    """The puzzle of ``seed``, unaudited, with the wall-clock time its generation took (cyclic
    garbage collection paused, :func:`gc_paused`). Pass it to :func:`audit_generated` before
    handing it out."""
    check_request(genre, rows, cols, level, flavour, genre_options, limits)
    if options is None:
        options = default_options(genre)
    kwargs = dict(genre_options or {})
    kwargs["options"] = options
    if has_levels(genre):
        kwargs.update(level=level, flavour=flavour or "hard")
    elif flavour is not None:
        kwargs["flavour"] = flavour
    with gc_paused():
        start = time.perf_counter()
        puzzle = GENERATORS[genre](rows, cols, random.Random(seed), **kwargs)
        generate_s = time.perf_counter() - start
    puzzle = dataclasses.replace(puzzle, name=f"{genre}-{rows}x{cols}-{seed}")
    return Made(genre, rows, cols, seed, level, flavour, puzzle, generate_s, dict(genre_options or {}))


def audit_generated(made: Made, options: api.Options | None = None) -> GeneratedPuzzle:
    """Audit and grade a puzzle from :func:`make_timed`; raise :class:`GenerationFailed` if the
    audit disagrees with what the generator promises."""
    genre, level, flavour, puzzle = made.genre, made.level, made.flavour, made.puzzle
    if options is None:
        options = default_options(genre)
    result = api.solve(puzzle, audit=True, options=options)
    where = f"generated {genre} {made.rows}x{made.cols} puzzle (seed {made.seed})"
    if result.status != "unique":
        raise GenerationFailed(f"internal error: the {where} is {result.status}, not unique")
    if result.minimal is None:
        raise GenerationFailed(f"internal error: the audit of the {where} was cut short: {result.note}")
    if promises_minimal(genre, level, flavour, made.genre_options) and not result.minimal:
        raise GenerationFailed(f"internal error: the {where} has redundant clues "
                               f"{result.redundant_clues}")
    # the audit's grade (None, with a note, if it ran out of time)
    out = GeneratedPuzzle(result, made.seed, level, flavour, grade=result.grade,
                          generate_s=made.generate_s)
    module = MODULES[genre]
    if has_levels(genre):
        out.level = module.resolve_level(level, flavour or "hard")
    if hasattr(module, "report"):
        out.extra.update(module.report(puzzle))
    return out


def _one(args: tuple) -> GeneratedPuzzle:
    return generate_one(*args)


def _within(work: list[tuple], jobs: int, deadline: float) -> Iterator[GeneratedPuzzle]:
    """:func:`generate_puzzles` under a deadline: ``work`` in ``jobs`` worker processes, each
    result awaited until ``deadline`` (monotonic clock); the workers are terminated when it
    passes or the caller stops reading."""
    made = 0
    pool = multiprocessing.Pool(jobs)
    try:
        pending = [pool.apply_async(_one, (args,)) for args in work]
        for result in pending:
            try:
                puzzle = result.get(timeout=max(0.0, deadline - time.monotonic()))
            except multiprocessing.TimeoutError:
                raise LimitReached(f"time limit reached: {made} of {len(work)} "
                                   f"puzzle{'s' if len(work) != 1 else ''} made") from None
            made += 1
            yield puzzle
    finally:
        pool.terminate()
        pool.join()


def generate_puzzles(genre: str, rows: int, cols: int, count: int, seed: int,
                     level: int | None = None, flavour: str | None = None,
                     options: api.Options | None = None,
                     genre_options: dict[str, Any] | None = None,
                     jobs: int = 1, limits: Limits = Limits(),
                     time_limit: float | None = None) -> Iterator[GeneratedPuzzle]:
    """``count`` checked puzzles in seed order (``jobs`` worker processes when > 1).

    ``time_limit``: wall-clock seconds for the whole run. The puzzles are then made in worker
    processes (one when ``jobs`` is 1), which are stopped when the limit passes; the puzzles
    finished before it are yielded in seed order, then :class:`LimitReached` says how many of
    ``count`` were made (a generator checks no clock of its own, so it is stopped from outside)."""
    check_request(genre, rows, cols, level, flavour, genre_options, limits)
    work = [(genre, rows, cols, derive_seed(seed, i), level, flavour, options, genre_options, limits)
            for i in range(count)]
    if time_limit is not None:
        yield from _within(work, min(jobs, count), time.monotonic() + time_limit)
    elif jobs > 1 and count > 1:
        with ProcessPoolExecutor(min(jobs, count)) as pool:
            yield from pool.map(_one, work)
    else:
        yield from map(_one, work)
