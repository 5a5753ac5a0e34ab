"""A batch's tasks and what a worker does with them.

A :class:`Task` is one unit of a batch: an input puzzle's text (a line of a list file, or one
puzzle of a puzzle file written back in satgrid's block format), or, for generation, one seed.
Its id is stable across runs: the SHA-256 of the verb with its options and of the input's
canonical text (the line with surrounding blanks removed, or the block satgrid writes; for
generation the genre, size, options and the puzzle's own seed), so re-running a command finds
the tasks it already finished.

A :class:`Verb` (a picklable description of the work: ``audit``, ``solve`` with ``unique``,
``generate``, or the setter's diagnostics ``ambiguity`` and ``repair``, whose whole JSON report
goes into the ``report`` column) turns a chunk of tasks into rows (:func:`run_chunk`): plain dicts of the store's
columns, built in the worker so that only strings and numbers travel back to the client. A task
that fails (a malformed puzzle) is a row with status ``error`` and the one-line message; the
chunk goes on.
"""
from __future__ import annotations

import functools
import glob
import hashlib
import json
import os
import socket
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .. import __version__, api, formats
from ..errors import ParseError, SatgridError
from ..puzzle import printable
from ..reader import Limits, read_text
from ..registry import GENRES

VERBS = ("audit", "solve", "generate", "ambiguity", "repair")


@dataclass(frozen=True)
class Task:
    """One unit of work: ``text`` is the puzzle's input (empty for generation), ``source`` where
    it came from (``file:line``), ``seed`` the seed of a generated puzzle."""

    id: str
    source: str
    text: str = ""
    line: int | None = None
    seed: int | None = None
    problem: str = ""  # why a list line is no puzzle, said as the task's error


@dataclass(frozen=True)
class Verb:
    """What to do with each task, and with which options; everything a worker needs (it is sent
    to the workers with each chunk, so it holds plain values only)."""

    name: str
    genre: str | None = None
    unique: bool = False
    grade: bool = False
    solver: str | None = None
    time_limit: float | None = None
    conflict_limit: int | None = None
    connectivity: str = "lazy"
    trust_external_unsat: bool = False
    meta: dict[str, str] = field(default_factory=dict)
    limits: Limits = Limits()
    # generation only
    rows: int = 0
    cols: int = 0
    level: int | None = None
    flavour: str | None = None
    genre_options: dict[str, Any] = field(default_factory=dict)
    # ambiguity only: the solution count's cap
    cap: int = 0

    def options(self) -> api.Options | None:
        """The solver options; None for a generator's own (no ``--solver`` given)."""
        if self.name == "generate" and self.solver is None:
            return None
        return api.Options(self.solver or api.DEFAULT_SOLVER, self.time_limit, self.conflict_limit,
                           self.connectivity, self.trust_external_unsat)  # type: ignore[arg-type]

    def key(self) -> dict[str, Any]:
        """The options that decide a task's result, the part of its id the verb gives."""
        out = asdict(self)
        out["limits"] = None  # limits refuse input; they do not change a result
        if self.name != "audit":
            out.pop("grade")
        if self.name != "ambiguity":
            out.pop("cap")
        return out

    def id_maker(self) -> Callable[[str], str]:
        """``canonical text -> task id``: SHA-256 (first 128 bits, hex) of these options and the
        text (the options hashed once: a batch hashes many inputs)."""
        head = hashlib.sha256(json.dumps(self.key(), sort_keys=True, default=str).encode("utf-8") + b"\0")

        def task_id(canonical: str) -> str:
            digest = head.copy()
            digest.update(canonical.encode("utf-8"))
            return digest.hexdigest()[:32]
        return task_id


# -- inputs -------------------------------------------------------------------------------------
def expand(inputs: tuple[str, ...]) -> list[str]:
    """The inputs with globs expanded (sorted), URLs and game IDs kept as they are; a pattern that
    matches nothing, or a missing file, is an error."""
    out = []
    for item in inputs:
        if formats.looks_inline(item) and not Path(item).exists():
            out.append(item)
        elif glob.has_magic(item):
            found = sorted(glob.glob(item, recursive=True))
            if not found:
                raise SatgridError(f"{item}: no file matches")
            out += found
        elif not Path(item).is_file():
            raise SatgridError(f"{item}: no such file")
        else:
            out.append(item)
    return out


def is_list(path: str, text: str, lines: bool) -> bool:
    """Whether ``path`` holds one puzzle a line: a ``.jsonl`` file, a file of puzz.link URLs or game
    IDs (its first line one, as the reader tells such a file: a line that is none is then its
    own failed task, not the whole file's), or any text file when ``lines`` (``--lines``) says so."""
    if lines or path.endswith(".jsonl"):
        return True
    first = next((t.strip() for t in text.splitlines() if t.strip() and not t.lstrip().startswith("#")), None)
    return first is not None and formats.kind_of_line(first) is not None


def _line_input(line: str, urls: bool) -> tuple[str, str]:
    """The puzzle of a list line and, when the line cannot be one, what is wrong with it: a JSON
    string, a JSON object's ``url`` (or ``puzzle``) when it is a string (another value is named,
    unless the object has a ``genre``: a satgrid JSON result), else the line itself (a URL, a
    one-line puzzle, or a satgrid JSON result). In a file of URLs and game IDs (``urls``: its
    first line is one) a line that is neither is said to be so."""
    if line.startswith(("{", '"')):
        try:
            doc = json.loads(line)
        except ValueError:
            doc = None
        if isinstance(doc, str):
            return doc, ""
        if isinstance(doc, dict):
            for key in ("url", "puzzle"):
                if isinstance(doc.get(key), str):
                    return doc[key], ""
                if key in doc and "genre" not in doc:  # (a satgrid result's "puzzle" is a grid)
                    return line, (f"the JSON object's {key!r} is {printable(json.dumps(doc[key]))[:40]}, "
                                  "not a string (a puzz.link URL, game ID or one-line puzzle)")
    if urls and formats.kind_of_line(line) is None:
        return line, ("not a puzz.link URL or game ID, which this file holds one a line (its first "
                      "line is one)")
    return line, ""


def input_tasks(verb: Verb, inputs: tuple[str, ...], lines: bool = False) -> Iterator[Task]:
    """The tasks of ``inputs`` (files, globs, URLs): one a line of a list file, one a puzzle of a
    puzzle file (read here; a file that does not read is one task, which fails with its error)."""
    task_id = verb.id_maker()
    for item in expand(inputs):
        if formats.looks_inline(item) and not Path(item).exists():
            yield Task(task_id(item), "<argument>", item)
            continue
        _, text = read_text(item, verb.limits)
        if is_list(item, text, lines):
            urls = not lines and not item.endswith(".jsonl")
            for n, raw in enumerate(text.splitlines(), 1):
                line = raw.strip()
                if line and not line.startswith("#"):
                    canonical, problem = _line_input(line, urls)
                    yield Task(task_id(canonical), item, canonical, n, problem=problem)
            continue
        try:
            puzzles = api.load_text(text, item, verb.genre, verb.meta, limits=verb.limits)
        except SatgridError as exc:  # the whole file is one failed task
            yield Task(task_id(text), item, text, 1 if not isinstance(exc, ParseError) else exc.line)
            continue
        for p in puzzles:
            block = formats.block_of(p, str(p.source.line or 1))
            yield Task(task_id(block), item, block, p.source.line or None)


def generation_tasks(verb: Verb, count: int, seed: int) -> Iterator[Task]:
    """``count`` generation tasks, puzzle ``i`` from the driver's seed of ``(seed, i)``."""
    from ..generators import derive_seed

    task_id = verb.id_maker()
    for i in range(count):
        s = derive_seed(seed, i)
        yield Task(task_id(f"seed {s}"), f"seed {seed} #{i}", seed=s)


# -- the worker's side --------------------------------------------------------------------------
def run_chunk(verb: Verb, chunk: list[Task]) -> list[dict[str, Any]]:
    """The store rows of a chunk of tasks (run in a worker process)."""
    return [run_task(verb, task) for task in chunk]


def run_task(verb: Verb, task: Task) -> dict[str, Any]:
    """One task's row. Bad input is an ``error`` row with its one-line message; so is an internal
    error (a solution the checker refuses), named as such."""
    started = time.perf_counter()
    row: dict[str, Any] = {"task_id": task.id, "verb": verb.name, "source": task.source,
                           "line": task.line, "seed": task.seed, "genre": verb.genre,
                           "input": task.text or None, "version": __version__,
                           "worker": f"{_host()}:{os.getpid()}"}
    try:
        if task.problem:
            raise ParseError(task.source, task.line, task.problem)
        if verb.name == "generate":
            _generate(verb, task, row)
        else:
            _solve(verb, task, row)
    except SatgridError as exc:
        row.update(status="error", message=_located(exc, task))
    except Exception as exc:  # a bug: keep the batch going, the row says what broke
        row.update(status="error", message=f"internal error: {type(exc).__name__}: {exc}")
    row["task_s"] = time.perf_counter() - started
    return row


@functools.lru_cache(maxsize=1)
def _host() -> str:
    """This machine's name (asked once a process: a system call a task otherwise)."""
    return socket.gethostname()


def _located(exc: SatgridError, task: Task) -> str:
    """The error's one line, a parse error's line counted in the task's file (a list file's
    line is a text of its own, read from its first line)."""
    if isinstance(exc, ParseError) and task.line is not None and exc.source == task.source \
            and (exc.line or 1) == 1 and task.text.count("\n") <= 1:
        return str(ParseError(task.source, task.line, exc.message, exc.column))
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _solve(verb: Verb, task: Task, row: dict[str, Any]) -> None:
    puzzles = api.load_text(task.text, task.source, verb.genre, verb.meta, limits=verb.limits)
    if len(puzzles) != 1:
        raise ParseError(task.source, task.line, f"{len(puzzles)} puzzles where one was expected: "
                                                 "a list file holds one puzzle a line")
    [puzzle] = puzzles
    options = verb.options()
    assert options is not None
    if verb.name in DIAGNOSTICS:
        _describe(puzzle, row)
        DIAGNOSTICS[verb.name](verb, puzzle, options, row)
        return
    audit = verb.name == "audit"
    result = api.solve(puzzle, unique=verb.unique or audit, audit=audit, options=options,
                       grade=verb.grade if audit else None)
    _describe(puzzle, row)
    _result_columns(result, row)


def _ambiguity(verb: Verb, puzzle: Any, options: api.Options, row: dict[str, Any]) -> None:
    from ..ambiguity import report

    found = report(puzzle, options, verb.cap)
    g = found.genre
    row.update(status=found.status, message=found.note or None, solver=options.solver,
               solution=_json(None if found.solution is None else g.solution_json(puzzle, found.solution)),
               second_solution=_json(None if found.second_solution is None
                                     else g.solution_json(puzzle, found.second_solution)),
               report=_json(found.to_json()), solve_s=found.stats.time_s,
               sat_calls=found.stats.sat_calls)


def _repair(verb: Verb, puzzle: Any, options: api.Options, row: dict[str, Any]) -> None:
    from ..repair import repair

    found = repair(puzzle, options=options)
    g = found.genre
    row.update(status=found.status, message=found.note or None, solver=options.solver,
               solution=_json(None if found.solution is None else g.solution_json(puzzle, found.solution)),
               report=_json(found.to_json()), solve_s=found.time_s)


#: The diagnostics verbs: their row's columns from one report each.
DIAGNOSTICS: dict[str, Callable[[Verb, Any, api.Options, dict[str, Any]], None]] = {
    "ambiguity": _ambiguity, "repair": _repair}


def _generate(verb: Verb, task: Task, row: dict[str, Any]) -> None:
    from ..generators import generate_one

    assert verb.genre is not None and task.seed is not None
    made = generate_one(verb.genre, verb.rows, verb.cols, task.seed, verb.level, verb.flavour,
                        verb.options(), verb.genre_options, verb.limits)
    _describe(made.puzzle, row, with_text=True)
    _result_columns(made.result, row)
    row["grade"] = made.grade
    row["generate_s"] = made.generate_s
    if made.level is not None:
        row["level"] = made.level


def _describe(puzzle: Any, row: dict[str, Any], with_text: bool = False) -> None:
    """The puzzle's columns: genre, name, size, clue count, puzz.link URL (where the genre has
    one and it can write the puzzle), and, for a puzzle made here, its text."""
    g = GENRES[puzzle.genre]
    row.update(genre=g.name, name=puzzle.name or None, rows=puzzle.rows, cols=puzzle.cols,
               clues=len(puzzle.clues()))
    if g.part("PUZZLINK") is not None:
        try:
            row["url"] = formats.write(puzzle, "url").strip()
        except SatgridError:  # a puzzle puzz.link cannot write (a box shape it lacks): no URL
            row["url"] = None
    if with_text:
        row["input"] = formats.text_of(puzzle)


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _result_columns(result: api.Result, row: dict[str, Any]) -> None:
    g, p = result.genre, result.puzzle
    row.update(
        status=result.status,
        message=result.note or None,
        solution=_json(None if result.solution is None else g.solution_json(p, result.solution)),
        second_solution=_json(None if result.second_solution is None
                              else g.solution_json(p, result.second_solution)),
        redundant_clues=_json(None if result.redundant_clues is None
                              else [list(k) for k in result.redundant_clues]),
        minimal=result.minimal,
        grade=result.grade,
        solver=result.solver,
        solve_s=result.stats.time_s,
        sat_calls=result.stats.sat_calls,
    )
