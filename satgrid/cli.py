"""The ``satgrid`` command: a thin click layer over :mod:`satgrid.api`.

Exit status: 0 every puzzle processed (whatever its status), 1 an error, 2 bad usage, 3 with
``--require-unique`` when some puzzle is not uniquely solved.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

import click

from . import __version__, api, dimacs, formats, grading, render_svg
from . import repair as repairing
from .errors import LimitReached, SatgridError
from .files import NotAllWritten, unwritable, write_all
from .puzzle import cell_name, part_name, printable
from .reader import Limits, is_decimal, read_text
from .registry import GENRES
from .solver import DEFAULT_SOLVER, MAX_CONFLICT_LIMIT, check_conflict_limit, check_time_limit


@contextlib.contextmanager
def reported_errors() -> Iterator[None]:
    """Every satgrid error becomes one line on stderr and exit status 1, never a traceback."""
    try:
        yield
    except SatgridError as exc:
        click.echo(f"satgrid: error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("satgrid: interrupted", err=True)
        sys.exit(130)


def _having(part: str) -> str:
    """`` (genre, genre)``: the genres whose record has ``part`` (a help text's list), or ``""``."""
    names = [name for name, g in GENRES.items() if g.part(part) is not None]
    return f" ({', '.join(names)})" if names else ""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="satgrid")
def main() -> None:
    """SAT-encoding compiler and solver harness for grid logic puzzles."""


class Limit(click.ParamType):
    """A limit option's value, parsed and checked by the library's own rule (satgrid.solver); a
    bad value is one line ``satgrid: error: --flag VALUE: problem`` and exit status 2 (bad
    usage)."""

    def __init__(self, name: str, parse: Any, check: Any):
        self.name, self._parse, self._check = name, parse, check

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        flag = param.opts[0] if param is not None else self.name
        try:
            return self._check(self._parse(value), flag)
        except ValueError:
            problem = f"{flag} {value}: not a {'whole ' if self._parse is int else ''}number"
        except SatgridError as exc:
            problem = str(exc)
        click.echo(f"satgrid: error: {problem}", err=True)
        sys.exit(2)


SECONDS = Limit("seconds", float, check_time_limit)
CONFLICTS = Limit("conflicts", int, check_conflict_limit)


class Jobs(click.ParamType):
    """``--jobs``: a count of worker processes (1 or more) or ``auto`` (:func:`_auto_jobs`)."""

    name = "N|auto"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | str:
        if value == "auto" or (isinstance(value, int) and value >= 1):
            return value
        text = str(value).strip()
        if text.isdecimal() and int(text) >= 1:
            return int(text)
        self.fail(f"{value!r} is neither a count of 1 or more nor 'auto'", param, ctx)


JOBS = Jobs()

def time_limit_option(f):
    return click.option("--time-limit", type=SECONDS, metavar="SECONDS",
                        help="Wall-clock seconds per puzzle, building its encoding included "
                             "(finite, 0 or more).")(f)


def trust_option(f):
    return click.option("--trust-external-unsat", is_flag=True,
                        help="Take an external solver's UNSAT answers on trust instead of "
                             "re-solving each with the embedded cadical153.")(f)


def input_options(f):
    f = click.option("--genre", help="Genre of the input (else read from the file's header).")(f)
    return limit_options(f)  # the genres' own input options (--box, ...) are added at the end


def limit_options(f):
    """The input limits of :class:`satgrid.reader.Limits`, each raised by its option."""
    f = click.option("--max-input-mib", type=click.IntRange(min=1), default=Limits().input_mib,
                     show_default=True, help="Refuse input files (or standard input) longer than this.")(f)
    return size_limit_options(f)


def size_limit_options(f):
    """The limits on a puzzle's size of :class:`satgrid.reader.Limits`."""
    default = Limits()
    f = click.option("--max-cells", type=click.IntRange(min=1), default=default.cells, show_default=True,
                     help="Refuse puzzles with more cells (rows x columns) than this.")(f)
    f = click.option("--max-clauses", type=click.IntRange(min=1), default=default.clauses,
                     show_default=True, help="Refuse puzzles whose encoding is estimated to have more "
                                             "clauses than this (a few hundred bytes of memory each).")(f)
    return f


def _limits(opts: dict[str, Any]) -> Limits:
    """The limits the options ask for; the encoding is estimated for the command's
    ``--connectivity`` where it has one that applies to solving, else lazy."""
    default = Limits()
    return Limits(opts.get("max_input_mib", default.input_mib), opts.get("max_cells", default.cells),
                  opts.get("max_clauses", default.clauses), opts.get("connectivity") or "lazy")


def count_option(f):
    from .ambiguity import DEFAULT_CAP

    return click.option("--count-solutions", type=click.IntRange(min=2), default=DEFAULT_CAP,
                        show_default=True, metavar="N",
                        help="Count the solutions of an ambiguous puzzle up to N.")(f)


def solve_options(f):
    f = input_options(f)
    f = click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
                     help="python-sat solver name (cadical153, cadical195, minisat22, glucose4, ...), or "
                          "external:cadical, external:minisat, external:picosat, "
                          "external:cryptominisat5, external:/path/to/binary (a separate SAT "
                          "binary, run once per SAT call).")(f)
    f = time_limit_option(f)
    f = click.option("--conflict-limit", type=CONFLICTS, metavar="N",
                     help=f"Conflicts per SAT call (1 to {MAX_CONFLICT_LIMIT}).")(f)
    f = trust_option(f)
    f = click.option("--connectivity", type=click.Choice(["lazy", "eager", "propagator"]), default="lazy",
                     show_default=True, help="Lowering of connectivity and loop rules. propagator: "
                     "connected regions checked inside the search (needs --solver cadical195 or cadical300; "
                     "other rules lazy).")(f)
    f = click.option("--format", "fmt", type=click.Choice(["text", "json", "pzprv3"]), default="text",
                     show_default=True,
                     help="pzprv3: puzz.link's file format with the solution filled in.")(f)
    f = click.option("--jobs", type=JOBS, default="auto", show_default=True,
                     help="Worker processes for files with many puzzles. solve with fewer puzzles "
                          "than N: each big puzzle raced in up to N configurations (--solver and "
                          "--connectivity varied unless given), the first answer wins. auto: "
                          "N is the CPUs for solve with fewer puzzles than CPUs, else 1.")(f)
    f = click.option("--probe/--no-probe", default=True, show_default=True,
                     help="A search that has found no solution after 5 s stops, proves what "
                          "failed-literal probing proves from the clues (for at most 5 s), and "
                          "searches on with those facts (grids over 100 cells; not audits).")(f)
    f = click.option("--require-unique", is_flag=True,
                     help="Exit 3 unless every puzzle has exactly one solution.")(f)
    return f


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--unique", is_flag=True, help="Also prove the solution unique (or show a second, "
              "with the ambiguity report: backbone, undecided cells, solution count).")
@solve_options
@click.option("--summary", is_flag=True,
              help="With several puzzles: print the status table alone, not each solution.")
@count_option
def solve(files: tuple[str, ...], unique: bool, summary: bool, count_solutions: int,
          **opts: Any) -> None:
    """Solve the puzzles in FILES (- for standard input)."""
    unique = unique or opts["require_unique"]
    _run(files, unique=unique, audit=False, minimize=False, summary=summary,
         ambiguity=count_solutions if unique else None, **opts)


@main.command()
@click.argument("files", nargs=-1, required=True)
@solve_options
@click.option("--minimize", is_flag=True, help="Also find a minimal clue subset (greedy deletion).")
@click.option("--grade/--no-grade", default=True, show_default=True,
              help="Also grade the puzzle on the propagation ladder (see satgrid grade).")
@click.option("--summary", is_flag=True,
              help="With several puzzles: print the status table alone, not each report.")
def audit(files: tuple[str, ...], minimize: bool, grade: bool, summary: bool, **opts: Any) -> None:
    """Solve, prove uniqueness, list the clues that can go (clue minimality), and grade."""
    _run(files, unique=True, audit=True, minimize=minimize, grade=grade, summary=summary, **opts)


def _without(*names: str):
    """Drop options a shared decorator added that a command has no use for."""
    def apply(f):
        f.__click_params__ = [p for p in f.__click_params__ if p.name not in names]
        return f
    return apply


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: one object a line per puzzle.")
@_without("jobs", "fmt")
@solve_options
@count_option
def ambiguity(files: tuple[str, ...], count_solutions: int, fmt: str, require_unique: bool,
              **opts: Any) -> None:
    """Where the puzzles in FILES are ambiguous: the solutions counted up to --count-solutions,
    the backbone (cells or edges the same in every solution), the undecided ones, and the first
    two solutions with their differences."""
    from . import ambiguity as amb

    with reported_errors():
        puzzles = _load(files, opts)
        options = _options(opts)
        options.check_solver()
        reports = []
        for puzzle in puzzles:
            found = amb.report(puzzle, options, count_solutions)
            reports.append(found)
            g, name = GENRES[puzzle.genre], printable(puzzle.name or str(puzzle.source))
            if fmt == "json":
                click.echo(json.dumps({"id": puzzle.name or str(puzzle.source), "genre": g.name,
                                       "rows": puzzle.rows, "cols": puzzle.cols,
                                       "puzzle": g.puzzle_json(puzzle), **found.to_json(),
                                       "solver": options.solver}))
                continue
            click.echo(f"puzzle {name} ({g.name} {puzzle.rows}x{puzzle.cols}, "
                       f"{len(puzzle.clues())} clues): {found.status}")
            click.echo("\n".join(found.lines()))
            click.echo(_solver_line(options.solver, found.stats) + ("\n" if len(puzzles) > 1 else ""))
    if require_unique and any(r.status != "unique" for r in reports):
        sys.exit(3)


@main.command()
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: one status line per check; json: one object per check.")
@_without("jobs", "require_unique", "fmt")
@solve_options
@click.option("--count-solutions", type=click.IntRange(min=2), default=2, show_default=True,
              metavar="N", help="Count the solutions of an ambiguous puzzle up to N.")
@click.option("--interval", type=click.FloatRange(min=0.01, max=3600), default=0.5,
              show_default=True, metavar="SECONDS", help="How often to look at the file.")
@click.option("--once", is_flag=True, help="Check once and exit (no watching; exit status 1 when "
                                           "the input does not read). FILE - (standard input) "
                                           "is checked once.")
@click.option("--max-changes", type=click.IntRange(min=0), metavar="N",
              help="Exit after re-checking N changes of the file.")
def watch(file: str, fmt: str, count_solutions: int, interval: float, once: bool,
          max_changes: int | None, **opts: Any) -> None:
    """Re-check the puzzles in FILE each time the file changes (its modification time or size),
    on the solver of the previous check (satgrid.live): one status line per puzzle and change.
    Input that does not read prints its one-line error and the watch goes on; Ctrl-C ends it."""
    from .live import Editor

    with reported_errors():
        options = _options(opts)
        options.check_solver()
    editors: dict[str, Editor] = {}
    seen: object = ()
    changes = 0
    once = once or file == "-"  # standard input is read once: it cannot change
    try:
        while True:
            stamp = _file_stamp(file)
            if stamp != seen:
                if seen != ():
                    changes += 1
                seen = stamp
                read = _watch_check(file, opts, options, editors, count_solutions, fmt)
                if once and not read:
                    sys.exit(1)
                if once or (max_changes is not None and changes >= max_changes):
                    break
            time.sleep(interval)
    except KeyboardInterrupt:
        click.echo("satgrid: watch stopped", err=True)
    finally:
        for editor in editors.values():
            editor.close()


def _file_stamp(path: str) -> tuple | None:
    """What tells a change of ``path``: its modification time, size and inode (None: missing)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def _watch_check(file: str, opts: dict[str, Any], options: api.Options, editors: dict,
                 cap: int, fmt: str) -> bool:
    """``watch``: read FILE and re-check each puzzle on its editor (one per puzzle id); bad
    input is one line, not an exit (False returned)."""
    from .live import Editor

    clock = time.strftime("%H:%M:%S")
    try:
        puzzles = _load((file,), opts)
    except SatgridError as exc:
        if fmt == "json":
            click.echo(json.dumps({"time": clock, "status": "error", "error": str(exc)}))
        else:
            click.echo(f"{clock} error: {exc}")
        return False
    for index, puzzle in enumerate(puzzles):
        ident = puzzle.name or str(index + 1)
        editor = editors.get(ident)
        if editor is None or editor.puzzle.genre != puzzle.genre:
            if editor is not None:
                editor.close()
            editor = editors[ident] = Editor(puzzle, options, cap)
        else:
            editor.load(puzzle)
        check = editor.check()
        label = printable(puzzle.name or str(puzzle.source))
        if fmt == "json":
            found = check.report.to_json()
            click.echo(json.dumps({"time": clock, "id": puzzle.name or str(puzzle.source),
                                   "genre": puzzle.genre, **{k: v for k, v in found.items()
                                                             if k != "backbone"},
                                   "same_solver": check.reused, "answered_by": check.how}))
        else:
            click.echo(f"{clock} {label}: {check.line()}")
    return True


@main.command()
@click.argument("file")
@input_options
@click.option("--dimacs", "as_dimacs", is_flag=True,
              help="Write DIMACS CNF (the default and only export format; kept for old scripts).")
@click.option("-o", "--output", help="Output file, directory, or - for stdout [default: cnf_out/].")
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]), default="eager",
              show_default=True, help="eager = the CNF alone is exact; lazy = base CNF only. (A "
              "propagator is code, not clauses: it has no export.)")
@click.option("--no-clues", is_flag=True, help="Leave the clues out (the empty grid's rules).")
@click.option("--clue-selectors", is_flag=True, help="Put each clue behind a selector variable.")
@click.option("--puzzle", "puzzle_id", help="Export only this puzzle of FILE (its id).")
def encode(file: str, as_dimacs: bool, output: str | None, connectivity: str, no_clues: bool,
           clue_selectors: bool, puzzle_id: str | None, **opts: Any) -> None:
    """Export each puzzle in FILE as DIMACS with a variable map (.map.json)."""
    with reported_errors():
        if no_clues and clue_selectors:
            raise click.UsageError("--no-clues and --clue-selectors exclude each other")
        puzzles = _load((file,), {**opts, "connectivity": connectivity})  # its size, as exported
        if puzzle_id is not None:
            puzzles = [_pick_puzzle(puzzles, puzzle_id, None, file)]
        if len(puzzles) > 1 and output == "-":  # one DIMACS text after another is no DIMACS file
            raise SatgridError(f"{file} holds {len(puzzles)} puzzles and standard output takes one "
                               "DIMACS file: name one with --puzzle ID, or give -o a directory")
        mode = "none" if no_clues else "selectors" if clue_selectors else "plain"
        stem = "stdin" if file == "-" else Path(file).stem
        base = Path(output) if output not in (None, "-") else Path("cnf_out")
        if len(puzzles) > 1 and output not in (None, "-") and (
                base.suffix == ".cnf" or base.exists() and not base.is_dir()):
            raise SatgridError(f"{output}: {len(puzzles)} puzzles are written one file each: give "
                               "-o a directory (or --puzzle ID for one of them)")
        names = _unique_names([stem] if len(puzzles) == 1 else
                              [f"{stem}-{_slug(p.name or str(i))}" for i, p in enumerate(puzzles, 1)])
        for puzzle, name in zip(puzzles, names):
            export = dimacs.build(puzzle, connectivity, mode)
            if output == "-":
                click.echo(export.text, nl=False)
                continue
            target = base
            if output is None or output.endswith("/") or target.is_dir() or len(puzzles) > 1:
                target = target / f"{name}.cnf"  # (Path() drops a trailing slash: checked on output)
            sidecar = dimacs.write(export, target)
            v = export.varmap
            click.echo(f"{target}: {v['variables']} variables, {v['clauses']} clauses "
                       f"({v['connectivity']} connectivity, clues {mode}); map in {sidecar}")


@main.command()
@click.argument("file")
@click.argument("model")
@input_options
@click.option("--map", "map_path", help="The export's .map.json: take the options from it and "
              "check that the variable ids match.")
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]),
              help="Connectivity of the export the model is of [default: eager].")
@click.option("--no-clues", is_flag=True, help="The export was made with --no-clues.")
@click.option("--clue-selectors", is_flag=True, help="The export was made with --clue-selectors.")
@click.option("--puzzle", "puzzle_id", help="Which puzzle of FILE (when it holds several).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def decode(file: str, model: str, map_path: str | None, connectivity: str | None, no_clues: bool,
           clue_selectors: bool, puzzle_id: str | None, fmt: str, **opts: Any) -> None:
    """Read a solver's MODEL of FILE's DIMACS export back as a checked solution.

    MODEL is SAT-competition output ('s'/'v' lines), minisat's result file, or a list of
    literals. Variable ids come from a fresh export with the same options (exports are
    deterministic), so pass the options used with 'satgrid encode', or --map. The solution is
    printed only when it passes the rule checker; otherwise the error says what is broken (a model
    of a lazy export may break the loop or connectivity rule).
    """
    with reported_errors():
        if no_clues and clue_selectors:
            raise click.UsageError("--no-clues and --clue-selectors exclude each other")
        varmap = None
        if map_path is not None:
            if connectivity or no_clues or clue_selectors:
                raise click.UsageError("--map gives the export options; leave out --connectivity, "
                                       "--no-clues and --clue-selectors")
            varmap = _read_json(map_path)
        puzzle = _pick_puzzle(_load((file,), opts), puzzle_id, varmap, file)
        source, text = read_text(model, what="model")
        answer = dimacs.read_model(text, source)
        if answer.status != "sat":
            raise SatgridError(f"{source}: the solver answered {answer.status.upper()}: no model "
                               "to decode" + (" (an UNSAT exact export means the puzzle has no "
                               "solution)" if answer.status == "unsat" else ""))
        mode = "none" if no_clues else "selectors" if clue_selectors else "plain"
        decoded = dimacs.decode_model(puzzle, answer.literals, connectivity or "eager", mode,
                                      varmap, source)
        g, name = GENRES[puzzle.genre], puzzle.name or str(puzzle.source)
        if decoded.problems:
            why = "; ".join(decoded.problems[:3])
            if len(decoded.problems) > 3:
                why += f" (and {len(decoded.problems) - 3} more)"
            if decoded.broken_rules:
                rules = " and ".join(f'"{rule}"' for rule in decoded.broken_rules)
                why = (f"it breaks the rule{'s' if len(decoded.broken_rules) > 1 else ''} {rules}, "
                       f"which a lazy export leaves out (re-export with --connectivity eager): {why}")
            elif decoded.selectors_off:
                off = decoded.selectors_off
                why += (f"; the model switches {len(off)} clue {'selector' if len(off) == 1 else 'selectors'}"
                        f" off (e.g. {off[0]}): the puzzle is the CNF plus a unit clause for every selector")
            raise SatgridError(f"{source}: not a solution of puzzle {name}: {why}")
        if fmt == "json":
            click.echo(json.dumps({"id": name, "genre": g.name, "rows": puzzle.rows,
                                   "cols": puzzle.cols, "status": "solved",
                                   "puzzle": g.puzzle_json(puzzle),
                                   "solution": g.solution_json(puzzle, decoded.solution),
                                   "model": source}))
        else:
            click.echo(f"puzzle {name} ({g.name} {puzzle.rows}x{puzzle.cols}): the model of "
                       f"{source} is a solution (checked)")
            click.echo(g.render(puzzle, decoded.solution))


@main.command()
def genres() -> None:
    """List the genres satgrid knows."""
    width = max(map(len, GENRES))
    for name, g in GENRES.items():
        click.echo(f"{name.ljust(width)}  {g.summary}")


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: a report per puzzle and a table; json: one JSON "
                                      "result a line (as 'satgrid audit --format json').")
def demo(fmt: str) -> None:
    """Audit the bundled example puzzles of every genre (solve + uniqueness + clue audit)."""
    files = [str(resources.files("satgrid") / "data" / g.examples) for g in GENRES.values()]
    _run(tuple(files), unique=True, audit=True, minimize=False, fmt=fmt, genre=None,
         solver=DEFAULT_SOLVER, time_limit=None, conflict_limit=None,
         trust_external_unsat=False, connectivity="lazy", probe=True, jobs=1, require_unique=False)


@main.command()
@click.argument("source", metavar="INPUT")
@click.option("--to", "target", type=click.Choice([*formats.TARGETS, "svg"]), required=True,
              help="url: puzz.link; pzprv3: puzz.link's file; text: satgrid's text; tatham: a game "
                   f"ID of Simon Tatham's collection{_having('TATHAM')}; ipuz: ipuz JSON"
                   f"{_having('IPUZ')}; svg: a drawing.")
@click.option("-o", "--output", help="Output file [default: standard output]; with several puzzles, "
                                      "svg and ipuz go to OUTPUT-1.ext, OUTPUT-2.ext, ...")
@click.option("--solution", is_flag=True, help="Solve and include the solution (pzprv3, ipuz, svg).")
@input_options
def convert(source: str, target: str, output: str | None, solution: bool, **opts: Any) -> None:
    """Convert the puzzles in INPUT (a file, a puzz.link URL or a game ID) to another format."""
    with reported_errors():
        puzzles = _load((source,), opts)
        _check_output(output, target, len(puzzles) if target in ("svg", "ipuz") else 1)
        if target != "svg":
            formats.check_writable(puzzles, target)  # before solving: one line naming the puzzle
        results = [api.solve(p) if solution else None for p in puzzles]
        solutions = [r.solution if r else None for r in results]
        if target == "svg":
            _emit([render_svg.svg(p, s, title=_title(p, r))
                   for p, s, r in zip(puzzles, solutions, results)], output, target)
        elif target == "ipuz":
            _emit([formats.write(p, target, s) for p, s in zip(puzzles, solutions)], output, target)
        else:
            _emit([formats.write_all(puzzles, target, solutions)], output, target)


@main.command()
@click.argument("file")
@click.option("-o", "--output", required=True,
              help="out.svg, or out.png (needs the png extra); - writes SVG to standard output; "
                   "several puzzles go to out-1.svg, out-2.svg, ...")
@click.option("--solution", is_flag=True,
              help="Draw the solution; a second solution, if any, beside it with the differences marked.")
@click.option("--audit", is_flag=True, help="Mark the redundant clues (proves uniqueness first).")
@click.option("--ambiguity", "ambiguous", is_flag=True,
              help="Draw two solutions of an ambiguous puzzle: undecided cells hatched (undecided "
                   "edges dashed), the cells or edges in which the two differ red.")
@input_options
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
              help="python-sat solver name, or external:NAME as for solve.")
@time_limit_option
@trust_option
def render(file: str, output: str, solution: bool, audit: bool, ambiguous: bool, solver: str,
           time_limit: float | None, trust_external_unsat: bool, **opts: Any) -> None:
    """Draw the puzzles in FILE as SVG or PNG, with --solution their solutions."""
    with reported_errors():
        puzzles = _load((file,), opts)
        _check_output(output, "svg", len(puzzles))
        drawings = []
        for puzzle in puzzles:
            if ambiguous:
                drawings.append(_ambiguity_drawing(puzzle, api.Options(
                    solver=solver, time_limit=time_limit, trust_external_unsat=trust_external_unsat)))
                continue
            first = second = result = None
            redundant: list = []
            if solution or audit:
                options = api.Options(solver=solver, time_limit=time_limit,
                                      trust_external_unsat=trust_external_unsat)
                result = api.solve(puzzle, unique=True, audit=audit, options=options)
                if result.solution is None:
                    click.echo(f"satgrid: {result.label}: {result.status}, drawn without a solution", err=True)
                if solution:
                    first, second = result.solution, result.second_solution
                redundant = result.redundant_clues or []
            drawings.append(render_svg.svg(puzzle, first, second, redundant,
                                           title=_title(puzzle, result, audit)))
        _emit(drawings, output, "svg")


@main.command()
@click.argument("genre")
@click.option("--size", required=True, metavar="ROWSxCOLS",
              help="Grid size, rows x columns as every size satgrid prints: 10x15 is 10 rows of "
                   "15 cells.")
@click.option("--flavour", type=click.Choice(["normal", "hard"]),
              help="hard: clue-minimal; normal: easier, solvable by propagation and probing (or, "
                   "where the generator has levels, a middle level) [default: hard].")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=click.IntRange(min=0),
              help="Run seed (default: random); each puzzle reports its own seed, and --seed "
                   "with it and --count 1 makes that puzzle again.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes.")
@click.option("--solver", default=None,
              help="python-sat solver name for generating and auditing [default: the generator's "
                   f"own, else {DEFAULT_SOLVER}].")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@size_limit_options
@click.option("--time-limit", type=SECONDS, metavar="SECONDS",
              help="Wall-clock seconds for the whole run: the puzzles made by then are printed, "
                   "then one line says how many of COUNT were made (exit status 3).")
def generate(genre: str, size: str, flavour: str | None, count: int, seed: int | None, jobs: int,
             solver: str | None, fmt: str, max_cells: int, max_clauses: int,
             time_limit: float | None, **values: Any) -> None:
    """Make COUNT unique puzzles of GENRE; each is audited (unique, minimal where promised,
    solution checked) before it is printed."""
    import random

    from . import generators
    from .registry import genre as genre_named

    with reported_errors():
        name = genre_named(genre).name
        genre_options = _generator_options(name, values)
        level = genre_options.pop("level", None)
        if level is not None and flavour is not None:
            raise click.UsageError("give --level or --flavour, not both")
        rows, cols = _size(size)
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 32)
        limits = Limits(cells=max_cells, clauses=max_clauses)
        generators.check_request(name, rows, cols, level, flavour, genre_options, limits)
        options = api.Options(solver=solver) if solver is not None else None
        jobs = _workers(jobs, count) if jobs > 1 else 1
        stream = generators.generate_puzzles(name, rows, cols, count, seed, level, flavour,
                                             options, genre_options, jobs=jobs, limits=limits,
                                             time_limit=time_limit)
        progress = Progress("generating", count)
        try:
            for item in stream:
                with progress.between():
                    if fmt == "json":
                        click.echo(json.dumps(item.to_json()))
                    else:
                        click.echo(_generated_text(item))
        except LimitReached as exc:
            progress.clear()
            click.echo(f"satgrid: {exc}", err=True)
            sys.exit(3)
        finally:
            progress.clear()


def _generator_options(genre: str, values: dict[str, Any]) -> dict[str, Any]:
    """The genres' own ``generate`` options that were given, as keywords of ``genre``'s generator
    (``level`` is the driver's), each read by the genre's ``parse``; an option of other genres
    only is bad usage."""
    out: dict[str, Any] = {}
    mine = {o.name: o for o in GENRES[genre].part("OPTIONS", ()) if "generate" in o.commands}
    for key, text in values.items():
        if text is None:
            continue  # not given (a switch not given is None too)
        option = mine.get(key)
        if option is None:
            flag, owners = _GENRE_OPTIONS["generate"][key]
            raise click.UsageError(f"{flag} is for {' and '.join(owners)}, not {genre}")
        if option.switch:
            out[key] = True
            continue
        try:
            out[key] = option.parse(text)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=option.flag) from None
    return out


def _size(text: str) -> tuple[int, int]:
    """``--size ROWSxCOLS`` as (rows, cols)."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(is_decimal(p.strip()) for p in parts):
        raise click.BadParameter(f"{text!r} is not ROWSxCOLS (rows x columns, e.g. 9x9 or 10x15)",
                                 param_hint="--size")
    rows, cols = (int(p) for p in parts)
    return rows, cols


def _generated_text(item: Any) -> str:
    """A generated puzzle in satgrid's block format, its audit as ``key: value`` lines: the
    output reads back into solve, audit and convert."""
    p, r = item.puzzle, item.result
    facts: dict[str, object] = {"rows": p.rows, "cols": p.cols, "status": r.status}
    if item.level is not None:
        facts["level"] = item.level
    if item.flavour is not None:
        facts["flavour"] = item.flavour
    facts["clues"] = len(p.clues())
    facts["minimal"] = "yes" if r.minimal else "no"
    if item.grade is not None:
        facts["grade"] = item.grade
    facts.update({key.replace("_", "-"): value for key, value in item.extra.items()})
    facts["seed"] = item.seed
    return formats.block_of(p, r.id, facts)


@main.command()
@click.argument("files", nargs=-1, required=True)
@input_options
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]), default="lazy",
              show_default=True, help="Lowering of the loop and connectivity rules while grading: "
                                      "their cuts on the partial assignment are used in both, eager "
                                      "adds the complete CNF.")
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
              help="python-sat solver with unit propagation (cadical153, cadical195, minisat22, ...).")
@time_limit_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def grade(files: tuple[str, ...], connectivity: str, solver: str, time_limit: float | None, fmt: str,
          **opts: Any) -> None:
    """Grade puzzles on the propagation ladder: 0 = unit propagation solves it, 1 = failed-literal
    probing does, 2 = it needs search (or has no unique solution). See encodings/grading.md."""

    with reported_errors():
        puzzles = _load(files, opts)
        rows = []
        for puzzle in puzzles:
            started = time.monotonic()
            result = api.solve(puzzle, unique=True, options=api.Options(solver=solver, time_limit=time_limit))
            left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
            graded = grading.assess(puzzle, solver, connectivity, left)  # type: ignore[arg-type]
            rows.append((result, graded))
            if fmt == "json":
                out = {"id": result.id, "genre": puzzle.genre, "rows": puzzle.rows, "cols": puzzle.cols,
                       "status": result.status, **graded.to_json()}
                click.echo(json.dumps(out))
        if fmt == "text":
            click.echo(f"{TABLE_HEAD} {'grade':>5} "
                       f"{'method':<22} {'propagation':>11} {'probing':>9} {'ms':>9}")
            for result, graded in rows:
                level = "-" if graded.level is None else str(graded.level)
                method = "-" if graded.level is None else grading.LEVELS[graded.level]
                click.echo(f"{_table_row(result)} {level:>5} {method:<22} "
                           f"{f'{graded.fixed_by_propagation}/{graded.primary}':>11} "
                           f"{f'{graded.fixed_by_probing}/{graded.primary}':>9} {graded.time_s * 1000:>9.1f}")
            for result, graded in rows:  # whole, not cut to the method column's width
                if graded.note:
                    click.echo(f"note: {result.label}: {graded.note}")


@main.command()
@click.argument("file")
@click.option("--state", "state_path", metavar="PARTIAL",
              help="A partial solution in the genre's state format: " + "; ".join(
                  f"{name}: {g.part('STATE').help}" for name, g in GENRES.items() if g.part("STATE"))
              + ".")
@click.option("--puzzle", "puzzle_id", help="Which puzzle of FILE (when it holds several).")
@input_options
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]), default="lazy", show_default=True)
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
              help="python-sat solver with unit propagation and cores.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@time_limit_option
def hint(file: str, state_path: str | None, puzzle_id: str | None, connectivity: str, solver: str,
         fmt: str, time_limit: float | None, **opts: Any) -> None:
    """The next forced cell (or edge) of the puzzle in FILE, from the empty grid or from
    --state PARTIAL, proved by the weakest ladder level that can (unit propagation, failed-literal
    probing, search), with the clues involved. A state that contradicts the solution is reported
    as wrong. With --time-limit, status unknown when it passes first."""

    with reported_errors():
        puzzle = _pick_puzzle(_load((file,), opts), puzzle_id, None, file)
        state = None
        if state_path is not None:
            source, text = read_text(state_path, what="state")
            state = grading.read_state(puzzle, text, source)
        answer = grading.hint(puzzle, state, solver, connectivity,  # type: ignore[arg-type]
                              time_limit=time_limit)
        if fmt == "json":
            click.echo(json.dumps({"id": puzzle.name or str(puzzle.source), "genre": puzzle.genre,
                                   **answer.to_json()}))
        else:
            click.echo(answer.message)


# -- local deduction rules (a genre's RULES part) -------------------------------------------------
@main.group("rules")
def rules_group() -> None:
    """A genre's local deduction rules (rule files): prove them sound by SAT, and grade and solve
    puzzles with them. Each genre's encodings/*.md documents its rules."""


def _rule_book(genre: str | None) -> tuple[Any, str]:
    """The RULES part of ``genre`` (default: the one genre that has one) and the genre's name."""
    from .errors import UnsupportedGenre
    from .registry import genre as genre_named

    having = [g for g in GENRES.values() if g.part("RULES") is not None]
    if genre is None:
        if len(having) != 1:
            raise UnsupportedGenre("name the genre with --genre; genres with rules:"
                                   f"{_having('RULES') or ' none'}")
        return having[0].part("RULES"), having[0].name
    g = genre_named(genre)
    book = g.part("RULES")
    if book is None:
        raise UnsupportedGenre(f"genre {g.name} has no deduction rules; genres with rules:{_having('RULES') or ' none'}")
    return book, g.name


@rules_group.command("prove")
@click.argument("file", required=False)
@click.option("--genre", help="Genre of the rules [default: the one genre that has rules].")
@click.option("--margin", type=click.IntRange(min=0, max=4), default=1, show_default=True,
              help="Free entries around each pattern in the proof's window.")
@click.option("--require-proved", is_flag=True,
              help="Exit with status 3 when some rule is refuted (else 0 whatever the verdicts).")
@click.option("--svg", "svg_dir", metavar="DIR", help="Draw each refuted rule's counterexample "
                                                       "as DIR/rule-N.svg.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_prove(file: str | None, genre: str | None, margin: int, require_proved: bool,
                svg_dir: str | None, fmt: str) -> None:
    """Prove each rule of FILE (default: the genre's shipped rules) sound by SAT, in every
    symmetric variant: proved, proved for a loop that leaves the pattern's window, or refuted
    with a counterexample drawn. Ends with the count."""
    with reported_errors():
        book, _ = _rule_book(genre)
        path = file if file is not None else str(book.default())
        proof = book.prove(book.load(path), path, margin)
        if svg_dir is not None:
            _write_into(svg_dir, {f"rule-{_slug(verdict.rule.name.lstrip('#'))}.svg": book.svg(verdict)
                                  for verdict in proof.refuted})
        click.echo(json.dumps(proof.to_json()) if fmt == "json" else proof.text())
    if require_proved and proof.refuted:
        sys.exit(3)


def _rule_grades(files: tuple[str, ...], rules_path: str | None, loop_avoidance: bool,
                 opts: dict[str, Any]) -> Iterator[Any]:
    """Each puzzle's grade by its genre's rules (``rules_path``, or the genre's shipped ones)."""
    loaded: dict[str, tuple] = {}
    for puzzle in _load(files, opts):
        book, name = _rule_book(puzzle.genre)
        if name not in loaded:
            loaded[name] = tuple(book.load(rules_path if rules_path is not None else str(book.default())))
        yield book.grade(puzzle, loaded[name], loop_avoidance)


def rule_options(f):
    f = click.option("--rules", "rules_path", metavar="RULEFILE",
                     help="Rule file [default: the genre's shipped rules].")(f)
    f = click.option("--no-loop-avoidance", is_flag=True,
                     help="Rules only, without the thesis's loop avoidance between rounds.")(f)
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                        show_default=True)(f)


@rules_group.command("grade")
@click.argument("files", nargs=-1, required=True)
@input_options
@rule_options
def rules_grade(files: tuple[str, ...], rules_path: str | None, no_loop_avoidance: bool, fmt: str,
                **opts: Any) -> None:
    """Grade puzzles by the genre's rules: which rules each needs, how many edges the rules
    decide, and whether it falls back to search (whose solution is checked)."""
    with reported_errors():
        for graded in _rule_grades(files, rules_path, not no_loop_avoidance, opts):
            click.echo(json.dumps(graded.to_json()) if fmt == "json" else graded.line())


@rules_group.command("solve")
@click.argument("files", nargs=-1, required=True)
@input_options
@rule_options
def rules_solve(files: tuple[str, ...], rules_path: str | None, no_loop_avoidance: bool, fmt: str,
                **opts: Any) -> None:
    """Solve puzzles with the genre's rules first and search for the rest: the grade line and
    the checked solution."""
    with reported_errors():
        for graded in _rule_grades(files, rules_path, not no_loop_avoidance, opts):
            p = graded.puzzle
            g = GENRES[p.genre]
            if fmt == "json":
                solution = None if graded.solution is None else g.solution_json(p, graded.solution)
                click.echo(json.dumps({**graded.to_json(), "solution": solution}))
            else:
                click.echo(graded.line())
                if graded.solution is not None:
                    click.echo(g.render(p, graded.solution))


@main.command()
@click.argument("file")
@click.option("--puzzle", "puzzle_id", help="Which puzzle of FILE (when it holds several).")
@input_options
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
              help="python-sat solver with unit propagation and cores.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--svg", "svg_dir", metavar="DIR", help="Write one SVG per step into DIR (step-001.svg, ...).")
@click.option("--reasons", type=click.Choice(["mus", "level"]), default="mus", show_default=True,
              help="mus: every reason a minimal set that forces its step (proved by SAT calls); "
                   "level: propagation and probing steps get reasons minimal for that level, as "
                   "hint's (no SAT call to prove them; much faster on big grids).")
@time_limit_option
def explain(file: str, puzzle_id: str | None, solver: str, fmt: str, svg_dir: str | None,
            reasons: str, time_limit: float | None, **opts: Any) -> None:
    """Solve the puzzle in FILE step by step: each step one forced cell or edge with its reason,
    a minimal set of clues, named rules and earlier steps that forces it (smallest reasons
    first), and the difficulty (largest reason, depth). A puzzle with several solutions gets its
    forced part explained; an unsatisfiable one is reported as such. With --time-limit, the
    steps proved by then are printed with status unknown. With --reasons level, a step found by
    propagation or probing gets a reason from which that level proves it, none of whose elements
    can go (as hint's), not proved a minimal set by search."""
    from . import explain as explaining

    with reported_errors():
        puzzle = _pick_puzzle(_load((file,), opts), puzzle_id, None, file)
        answer = explaining.explain(puzzle, solver, time_limit=time_limit, reasons=reasons)
        if svg_dir is not None:
            _write_into(svg_dir, {f"step-{n:03d}.svg": text
                                  for n, text in enumerate(explaining.step_svgs(puzzle, answer), 1)})
        if fmt == "json":
            click.echo(json.dumps({"id": puzzle.name or str(puzzle.source), "genre": puzzle.genre,
                                   **answer.to_json()}))
        else:
            click.echo(answer.text(), nl=False)


# -- helpers ------------------------------------------------------------------------------------
def _title(puzzle: Any, result: api.Result | None, audit: bool = False) -> str:
    """A drawing's title: the puzzle's id and size, with a result its status (and for an audit
    its clue verdict)."""
    g = GENRES[puzzle.genre]
    parts = [f"{puzzle.name or puzzle.source} ({g.name} {puzzle.rows}x{puzzle.cols})"]
    if result is not None:
        parts.append(result.status)
        if audit and result.redundant_clues is not None:
            n = len(result.redundant_clues)
            parts.append(f"{n} redundant {'clue' if n == 1 else 'clues'}" if n else
                         "no redundant clue (minimal)")
    return ": ".join(parts[:2]) + "".join(f", {p}" for p in parts[2:])


def _ambiguity_drawing(puzzle: Any, options: api.Options) -> str:
    """``render --ambiguity``: the first two solutions with the undecided parts and the
    differences marked (a unique puzzle: its solution; none found: the puzzle alone)."""
    from .ambiguity import report

    found = report(puzzle, options)
    g = GENRES[puzzle.genre]
    if found.solution is None:
        click.echo(f"satgrid: {printable(puzzle.name or str(puzzle.source))}: {found.status}, "
                   "drawn without a solution", err=True)
    title = f"{puzzle.name or puzzle.source} ({g.name} {puzzle.rows}x{puzzle.cols}): {found.summary()}"
    return render_svg.svg(puzzle, found.solution, found.second_solution, title=title,
                          undecided=found.undecided)


def _check_output(output: str | None, ext: str, count: int = 1) -> None:
    """SatgridError when ``output`` names a directory (ends in ``/``, which Path() would drop, or
    exists as one), or when one of the ``count`` files :func:`_emit` would write cannot be written
    (:func:`satgrid.files.unwritable`): checked before the work, so a command that fails here has
    printed and written nothing."""
    if output in (None, "-"):
        return
    if output.endswith("/") or Path(output).is_dir():
        raise SatgridError(f"{output}: a directory; give -o a file name, such as "
                           f"{output.rstrip('/')}/out.{ext}")
    for target in _targets(output, count, ext):
        problem = unwritable(target)
        if problem is not None:
            raise SatgridError(f"{target}: cannot write: {problem}")


def _targets(output: str, count: int, ext: str) -> list[Path]:
    """The files :func:`_emit` writes ``count`` texts to: ``output`` itself for one, else
    OUTPUT-1.ext, OUTPUT-2.ext, ..."""
    path = Path(output)
    return [path] if count == 1 else [
        path.with_name(f"{path.stem}-{i}{path.suffix or '.' + ext}") for i in range(1, count + 1)]


def _emit(texts: list[str], output: str | None, ext: str) -> None:
    """Write one text to ``output`` (or stdout), several to OUTPUT-1.ext, OUTPUT-2.ext, ...; all
    or nothing as far as the OS lets (:func:`satgrid.files.write_all`): every target is checked
    first, every text written to a temporary file beside its target, and the temporary files
    renamed into place only when all are written. A rename that still fails (the folder changed
    meanwhile) cannot undo the renames before it: the error says which targets were written."""
    if output in (None, "-"):
        if len(texts) > 1:
            raise SatgridError(f"{len(texts)} puzzles: give -o NAME.{ext} to write NAME-1.{ext}, ...")
        click.echo(texts[0], nl=False)
        return
    _check_output(output, ext, len(texts))
    targets = _targets(output, len(texts), ext)
    datas = [render_svg.file_data(text, str(target)) if ext == "svg" else text
             for target, text in zip(targets, texts)]
    try:
        write_all([(t, d.encode("utf-8") if isinstance(d, str) else d) for t, d in zip(targets, datas)])
    except NotAllWritten as exc:
        done = set(exc.written)
        said = "" if len(targets) == 1 else "; " + ", ".join(
            f"{t} was {'written' if t in done else 'not'}" for t in targets if t != exc.target)
        raise SatgridError(f"{exc.target}: cannot write: {exc.reason}{said}") from None
    for target in targets:
        click.echo(f"wrote {target}", err=True)


def _write_into(folder: str, texts: dict[str, str]) -> None:
    """Write each SVG text of ``texts`` (file name -> text) into ``folder``, made if missing,
    each file atomically; a folder or file that cannot be written is one-line SatgridError."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SatgridError(f"{folder}: not a directory (a file of that name exists)") from None
    except OSError as exc:
        raise SatgridError(f"{folder}: cannot make the directory: {exc.strerror}") from None
    for name, text in texts.items():
        target = Path(folder) / name
        try:
            render_svg.write(text, str(target))
        except OSError as exc:
            raise SatgridError(f"{target}: cannot write: {exc.strerror}") from None


def _read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text())
    except OSError as exc:
        raise SatgridError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise SatgridError(f"{path}: not a JSON variable map: {exc}") from None


def _pick_puzzle(puzzles: list[Any], puzzle_id: str | None, varmap: Any, file: str) -> Any:
    """The one puzzle of ``puzzles`` a model is about: by --puzzle, by the map, or the only one."""
    wanted = puzzle_id or (varmap.get("puzzle") if isinstance(varmap, dict) and len(puzzles) > 1 else None)
    if wanted is None:
        if len(puzzles) > 1:
            raise SatgridError(f"{file} holds {len(puzzles)} puzzles: name one with --puzzle ID")
        return puzzles[0]
    chosen = [p for p in puzzles if (p.name or str(p.source)) == wanted]
    if not chosen:
        raise SatgridError(f"{file}: no puzzle {wanted!r}")
    return chosen[0]


def _slug(text: str) -> str:
    """``text`` as a file name part: letters, digits, ``-``, ``_`` and ``.``; others become ``_``."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)


def _unique_names(names: list[str]) -> list[str]:
    """``names`` with repeats told apart: the second ``x`` becomes ``x-2``, the third ``x-3``
    (skipping any such name that is already taken)."""
    taken: set[str] = set()
    out = []
    for name in names:
        unique, n = name, 1
        while unique in taken:
            n += 1
            unique = f"{name}-{n}"
        taken.add(unique)
        out.append(unique)
    return out


def _load(files: tuple[str, ...], opts: dict[str, Any]) -> list[Any]:
    """The puzzles in ``files``; the genres' own input options given become header values."""
    meta = {key: opts.get(key) for command, options in _GENRE_OPTIONS.items() if command != "generate"
            for key in options}
    return api.load(files, opts.get("genre"), meta, _limits(opts))


def _work(puzzle: Any, unique: bool, audit: bool, minimize: bool, grade: bool,
          options: api.Options, ambiguity: int | None = None,
          configs: list[api.Options] | None = None) -> api.Result:
    return api.solve(puzzle, unique=unique, audit=audit, minimize=minimize, options=options,
                     grade=grade, ambiguity=ambiguity, configs=configs)


def _auto_jobs(puzzles: list[Any], audit: bool) -> int:
    """What ``--jobs auto`` stands for: the usable CPUs for a solve (no audit) with fewer puzzles
    than CPUs, one of them big enough to race, so that each such one is raced (its rivals start
    only when it takes a while: :data:`satgrid.portfolio.RIVAL_DELAY_S`), else 1 (no pool of
    workers unless asked)."""
    from .portfolio import worth_racing

    cpus = _cpus()
    if audit or len(puzzles) >= cpus or not any(worth_racing(p) for p in puzzles):
        return 1
    return cpus


def _race_configurations(jobs: int, options: api.Options, quiet: bool = False) -> list[api.Options]:
    """The configurations a race on one puzzle runs: as many as ``--jobs`` asks, capped at the
    CPUs (said on stderr unless ``quiet``), keeping the varied options the user gave on the
    command line."""
    from click.core import ParameterSource

    from .portfolio import VARIED, configurations

    ctx = click.get_current_context()
    fixed = tuple(name for name in VARIED if ctx.get_parameter_source(name)
                  in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT))
    configs = configurations(options, jobs, fixed)
    return configs[:_workers(jobs, len(configs), "configuration", quiet)]


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _workers(jobs: int, tasks: int, unit: str = "task", quiet: bool = False) -> int:
    """The pool size for ``tasks`` tasks: ``jobs`` capped at the tasks and at the CPUs this
    process may run on; a cap below ``jobs`` is said on stderr unless ``quiet``."""
    cpus = _cpus()
    workers = max(1, min(jobs, tasks, cpus))
    if workers < jobs and not quiet:
        click.echo(f"satgrid: --jobs {jobs} capped at {workers} ({tasks} "
                   f"{unit}{'' if tasks == 1 else 's'}, {cpus} {'CPU' if cpus == 1 else 'CPUs'})",
                   err=True)
    return workers


class Progress:
    """A ``label done/total`` counter on a terminal's stderr that never shares a line with
    results: :meth:`clear` erases it (carriage return, erase to end of line) before a result is
    printed and :meth:`step` draws it again below the result. Off when stderr is no terminal."""

    def __init__(self, label: str, total: int, stream: Any = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.on = total > 1 and self.stream.isatty()
        self.label, self.total, self.done = label, total, 0
        self._draw()

    def _draw(self) -> None:
        if self.on and self.done < self.total:
            self.stream.write(f"\r{self.label} {self.done}/{self.total}")
            self.stream.flush()

    def clear(self) -> None:
        if self.on:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def step(self) -> None:
        self.done += 1
        self._draw()

    @contextlib.contextmanager
    def between(self) -> Iterator[None]:
        """Print a result inside this block: the counter is erased first and drawn after."""
        self.clear()
        try:
            yield
        finally:
            self.step()


def _run(files, unique, audit, minimize, fmt, jobs, require_unique, grade=True, summary=False,
         ambiguity=None, **opts) -> None:
    """Solve every puzzle and print each result as soon as it is made (text: the report of each
    puzzle, then the status table; json: a line each; pzprv3: each file, with a stderr line for
    each puzzle not solved as asked), so a killed run keeps what it printed."""
    with reported_errors():
        puzzles = _load(files, opts)
        options = _options(opts)
        options.check_solver()  # a bad solver name fails here, before any work
        if fmt == "pzprv3":
            formats.check_writable(puzzles, fmt)  # a puzzle pzprv3 cannot hold: nothing written
        work = functools.partial(_work, unique=unique, audit=audit, minimize=minimize, grade=grade,
                                 options=options, ambiguity=ambiguity)
        chosen = jobs == "auto"
        if chosen:
            jobs = _auto_jobs(puzzles, audit or minimize)
        racing = False
        if jobs > len(puzzles) and not (audit or minimize):  # fewer puzzles than workers
            from .portfolio import worth_racing

            racing = any(worth_racing(p) for p in puzzles)
        if racing:  # each puzzle big enough raced (satgrid.portfolio), the others solved here
            work = functools.partial(work, configs=_race_configurations(jobs, options, chosen))
        many = len(puzzles) > 1
        results = []
        with contextlib.ExitStack() as stack:
            workers = _workers(jobs, len(puzzles)) if jobs > 1 and not racing else 1
            if workers > 1:
                pool = stack.enter_context(ProcessPoolExecutor(workers))
                stream = pool.map(work, puzzles, chunksize=max(1, len(puzzles) // (workers * 8)))
            else:
                stream = map(work, puzzles)
            progress = Progress("solving", len(puzzles))
            stack.callback(progress.clear)
            for result in stream:
                results.append(result)
                with progress.between():
                    _print_result(result, fmt, unique, audit, minimize, summary, many)
        if fmt == "text" and (many or summary):
            click.echo(_text_report(results, audit))
        if many:
            click.echo(_summary(results), err=fmt != "text")
    if require_unique and any(r.status != "unique" or r.given_solution == "differs" for r in results):
        sys.exit(3)


def _print_result(result: api.Result, fmt: str, unique: bool, audit: bool, minimize: bool,
                  summary: bool, many: bool) -> None:
    """One puzzle's result in ``fmt``; the stderr note of a puzzle not solved as asked, and
    (outside JSON, which has the field) a warning when the input's own solution is not the one
    found."""
    if fmt == "json":
        click.echo(json.dumps(result.to_json()))
        return
    if result.given_solution not in (None, "matches"):
        click.echo(f"satgrid: warning: {result.label}: given solution {result.given_solution}: "
                   f"{result.given_note}", err=True)
    if fmt == "pzprv3":
        click.echo(formats.write(result.puzzle, "pzprv3", result.solution), nl=False)
        wanted = "unique" if unique else "solved"
        if result.status != wanted:
            lost = "" if result.solution is not None else ", written without an answer"
            click.echo(f"satgrid: {result.label}: {result.status}{lost}", err=True)
    elif not summary:
        click.echo(_one_report(result, audit, minimize) + ("\n" if many else ""))


def _part_list(puzzle: Any, keys: list, most: int = 16) -> str:
    """Cells or edges by name (``r1c2``, ``r1c2 top``), the first ``most`` of them."""
    names = [part_name(k, puzzle.rows, puzzle.cols) for k in keys[:most]]
    return ", ".join(names) + (f" and {len(keys) - most} more" if len(keys) > most else "")


def _clue_list(keys: list) -> str:
    return ", ".join(cell_name(*k) for k in keys) if keys else "none"


#: The first columns of every status table (sizes are rows x columns everywhere).
TABLE_HEAD = f"{'id':<24} {'genre':<11} {'rows x cols':>11} {'clues':>5} {'status':<13}"


def _table_row(r: api.Result) -> str:
    """A result's cells under :data:`TABLE_HEAD`."""
    p = r.puzzle
    return f"{r.label[:24]:<24} {p.genre:<11} {f'{p.rows}x{p.cols}':>11} {len(p.clues()):>5} {r.status:<13}"


def _text_report(results: list[api.Result], audit: bool) -> str:
    """The status table of several puzzles, a row each."""
    header = TABLE_HEAD
    if audit:
        header += f" {'redundant':>9} {'minimal':>7} {'grade':>5}"
    header += f" {'sat calls':>9} {'ms':>9}"
    lines = [header]
    for r in results:
        row = _table_row(r)
        if audit:
            red = "-" if r.redundant_clues is None else str(len(r.redundant_clues))
            minimal = "-" if r.minimal is None else ("yes" if r.minimal else "no")
            grade = "-" if r.grade is None else str(r.grade)
            row += f" {red:>9} {minimal:>7} {grade:>5}"
        row += f" {r.stats.sat_calls:>9} {r.stats.time_s * 1000:>9.2f}"
        lines.append(row)
    return "\n".join(lines)


def _one_report(r: api.Result, audit: bool, minimize: bool) -> str:
    g, p = r.genre, r.puzzle
    status = r.status + (" (uniqueness unknown)" if r.asked_unique and r.unique is None
                         and r.status == "solved" else "")
    lines = [f"puzzle {r.label} ({g.name} {p.rows}x{p.cols}, {len(p.clues())} clues): {status}"]
    if r.note:
        lines.append(f"note: {r.note}")
    if r.race is not None and r.race.rivals_ran:  # else it was a solve alone, in a worker
        lines.append(f"race: {r.race.line()}")
    if r.solution is not None:
        lines.append(g.render(p, r.solution))
    if r.second_solution is not None:
        diff = g.differences(p, r.solution, r.second_solution)
        lines.append(f"second solution ({len(diff)} differences: {_part_list(p, diff)}):")
        lines.append(g.render(p, r.second_solution))
    if r.ambiguity is not None:
        lines += r.ambiguity.lines(drawings=False)
    if r.redundant_clues is not None and not p.clues():
        lines.append("redundant clues: none (the puzzle has no clues to remove: its rules and "
                     "layout are all it gives): minimal")
    elif r.redundant_clues is not None:
        verdict = "minimal" if r.minimal else "not minimal"
        lines.append(f"redundant clues: {_clue_list(r.redundant_clues)} "
                     f"({len(r.redundant_clues)} of {len(p.clues())}): {verdict}")
    if r.partial_audit is not None:
        redundant, undecided = r.partial_audit
        lines.append(f"redundant clues so far: {_clue_list(redundant)} "
                     f"({len(redundant)} of {len(p.clues())}); undecided: {_clue_list(undecided)} "
                     f"({len(undecided)}): the limit stopped the audit")
    if r.grade is not None:
        lines.append(f"grade {r.grade}: solved by {grading.LEVELS[r.grade]}")
    if r.minimal_clues is not None:
        lines.append(f"a minimal clue set keeps {len(r.minimal_clues)} of {len(p.clues())} clues:")
        lines.append(g.render(p.with_clues({k: p.clues()[k] for k in r.minimal_clues})))
    lines.append(_solver_line(r.solver, r.stats))
    unsat = r.unsat_line()
    if unsat:
        lines.append(unsat)
    return "\n".join(lines)


def _options(opts: dict[str, Any]) -> api.Options:
    """The solving options of ``solve_options``' flags."""
    return api.Options(opts["solver"], opts["time_limit"], opts["conflict_limit"],
                       opts["connectivity"], opts["trust_external_unsat"], opts["probe"])


def _solver_line(solver: str, s: Any) -> str:
    """``solver NAME: 5 SAT calls, 1 CEGAR iterations, 2 cuts, 3.40 ms`` (a report's last line)."""
    return (f"solver {solver}: {s.sat_calls} SAT calls, {s.cegar_iterations} CEGAR iterations, "
            f"{s.cuts} cuts, " + (f"{s.probed} facts probed, " if s.probed else "")
            + f"{s.time_s * 1000:.2f} ms")


def _summary(results: list[api.Result]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    total = sum(r.stats.time_s for r in results)
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    checks: dict[str, int] = {}
    for r in results:
        for how, n in r.stats.unsat_checks.items():
            checks[how] = checks.get(how, 0) + n
    unsat = api.unsat_line(results[0].solver, checks)
    return (f"{len(results)} puzzles: {parts}; {total:.3f} s solver time, "
            f"{total / len(results) * 1000:.2f} ms per puzzle" + (f"; {unsat}" if unsat else ""))


# -- repair ---------------------------------------------------------------------------------------
@main.command("repair")
@click.argument("file")
@click.option("--keep-solution", "keep_path", metavar="FILE",
              help="Keep this solution: a file with the solution as a block's 'solution:' section "
                   "or the genre's solution text, or its JSON (as 'solve --format json' prints it).")
@click.option("--puzzle", "puzzle_id", help="Which puzzle of FILE (when it holds several).")
@click.option("--solutions", "max_solutions", type=click.IntRange(min=1), default=repairing.MAX_SOLUTIONS,
              show_default=True, help="Without --keep-solution: the solutions whose repairs are tried.")
@click.option("--max-rounds", type=click.IntRange(min=1), default=repairing.MAX_ROUNDS, show_default=True,
              help="Minimum-hitting-set calls per solution before the best repair found greedily "
                   "is reported (not proved smallest).")
@input_options
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
              help="python-sat solver with unsatisfiable cores (cadical153, cadical195, ...).")
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]), default="lazy", show_default=True)
@time_limit_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-o", "--output", help="Write the repaired puzzle (satgrid's text format) to this file.")
def repair_command(file: str, keep_path: str | None, puzzle_id: str | None, max_solutions: int,
                   max_rounds: int, solver: str, connectivity: str, time_limit: float | None,
                   fmt: str, output: str | None, **opts: Any) -> None:
    """Suggest the fewest clues to add so that the puzzle in FILE has one solution (the one of
    --keep-solution, or any), or, for a puzzle without solution, the fewest clues to remove;
    proved smallest by implicit hitting sets, or said to be found greedily."""
    with reported_errors():
        puzzle = _pick_puzzle(_load((file,), opts), puzzle_id, None, file)
        keep = None if keep_path is None else repairing.read_solution(puzzle, keep_path, _limits(opts))
        options = api.Options(solver=solver, time_limit=time_limit, connectivity=connectivity)  # type: ignore[arg-type]
        options.check_solver()
        _check_output(output, "txt")
        found = repairing.repair(puzzle, keep, options, max_solutions, max_rounds)
        if fmt == "json":
            click.echo(json.dumps(found.to_json()))
        else:
            click.echo(repairing.report(found))
        if output is not None:
            if found.repaired is None:
                click.echo(f"satgrid: no repaired puzzle to write to {output}", err=True)
            else:
                _emit([formats.text_of(found.repaired)], output, "txt")


# -- the genres' own options ----------------------------------------------------------------------
def _add_genre_options() -> dict[str, dict[str, tuple[str, list[str]]]]:
    """Add each genre's ``OPTIONS`` (:mod:`satgrid.genre_options`) to the commands they name, one
    flag per name (several genres declaring it share it, their help lines joined); return, per
    command, each option's name -> (flag, the genres that declare it)."""
    declared: dict[str, dict[str, list[tuple[str, Any]]]] = {}
    for name, g in GENRES.items():
        for option in g.part("OPTIONS", ()):
            for command in option.commands:
                declared.setdefault(command, {}).setdefault(option.name, []).append((name, option))
    added: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for command, options in declared.items():
        cmd = main.commands.get(command)
        if cmd is None:
            owner, option = next(iter(options.values()))[0]
            raise ValueError(f"{owner}'s option {option.flag} names no command {command!r}")
        taken = {flag for param in cmd.params for flag in param.opts}
        for key, owners in options.items():
            flag, metavar = owners[0][1].flag, owners[0][1].metavar
            if flag in taken:
                raise ValueError(f"{owners[0][0]}'s option {flag} is already an option of {command}")
            helps = [option.help for _, option in owners]
            text = helps[0] if len(helps) == 1 else "; ".join(f"{n}: {o.help}" for n, o in owners)
            switch = owners[0][1].switch
            cmd.params.append(click.Option([flag, key], metavar=None if switch else metavar, help=text,
                                           is_flag=switch, default=None))
            added.setdefault(command, {})[key] = (flag, [n for n, _ in owners])
    return added


_GENRE_OPTIONS = _add_genre_options()


# -- batches --------------------------------------------------------------------------------------
@main.group()
def batch() -> None:
    """Run a verb over many puzzles into a results store (SQLite), resumable; export and verify
    the results."""


@batch.command("run")
@click.argument("verb", type=click.Choice(["audit", "solve", "generate", "ambiguity", "repair"]))
@click.argument("inputs", nargs=-1, required=True)
@click.option("--store", "store_path", required=True, metavar="FILE.sqlite",
              help="The results store (created if missing); a re-run of the same command skips "
                   "the tasks it holds.")
@click.option("--unique", is_flag=True, help="solve: also prove the solution unique.")
@click.option("--count-solutions", "cap", type=click.IntRange(min=1), default=10, show_default=True,
              metavar="N", help="ambiguity: count solutions up to N.")
@click.option("--grade", is_flag=True, help="audit: also grade on the propagation ladder (off in "
                                            "batches: it adds about half the audit's cost).")
@click.option("--lines", is_flag=True, help="Read every input file as one puzzle a line (.jsonl "
                                            "files and files of URLs always are).")
@input_options
@click.option("--solver", default=None, help=f"python-sat solver or external:NAME [default: "
                                             f"{DEFAULT_SOLVER}; generate: the generator's own].")
@time_limit_option
@click.option("--conflict-limit", type=CONFLICTS, metavar="N",
              help=f"Conflicts per SAT call (1 to {MAX_CONFLICT_LIMIT}).")
@trust_option
@click.option("--connectivity", type=click.Choice(["lazy", "eager", "propagator"]), default="lazy",
              show_default=True, help="Lowering of connectivity and loop rules (as for solve).")
@click.option("--size", metavar="ROWSxCOLS", help="generate: grid size.")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="generate: how many puzzles.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="generate: run seed (puzzle i is made from the seed of (SEED, i), as in generate).")
@click.option("--flavour", type=click.Choice(["normal", "hard"]), help="generate: as for generate.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes on this machine.")
@click.option("--scheduler", metavar="tcp://HOST:PORT", help="Run on this Dask scheduler's "
                                                             "workers (needs satgrid[dask]).")
@click.option("--dask-local", type=click.IntRange(min=1), metavar="N",
              help="Run on a Dask LocalCluster of N worker processes (needs satgrid[dask]).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def batch_run(verb: str, inputs: tuple[str, ...], store_path: str, unique: bool, cap: int, grade: bool,
              lines: bool, solver: str | None, time_limit: float | None, conflict_limit: int | None,
              trust_external_unsat: bool, connectivity: str, size: str | None, count: int, seed: int,
              flavour: str | None, jobs: int, scheduler: str | None, dask_local: int | None,
              progress: bool | None, **opts: Any) -> None:
    """Run VERB (audit, solve, generate, ambiguity, repair) over INPUTS into --store: files, globs, URLs, or text and
    JSONL files with one puzzle or URL a line; for generate, INPUTS is the genre. Each task's
    result is one row; malformed puzzles are rows with status error."""
    import shlex

    from . import batch as batches
    from .batch.executors import Dask, LocalPool
    from .batch.progress import Bar
    from .registry import genre as genre_named

    with reported_errors():
        if scheduler and dask_local:
            raise click.UsageError("give --scheduler or --dask-local, not both")
        if (scheduler or dask_local) and jobs > 1:
            raise click.UsageError("--jobs is for local runs: a Dask run has its cluster's workers")
        common = dict(solver=solver, time_limit=time_limit, conflict_limit=conflict_limit,
                      connectivity=connectivity, trust_external_unsat=trust_external_unsat,
                      limits=_limits({**opts, "connectivity": connectivity}))
        given = {key: value for key, value in opts.items() if key in _BATCH_GENRE_OPTIONS and value is not None}
        if verb == "generate":
            if len(inputs) != 1 or size is None:
                raise click.UsageError("batch run generate takes one GENRE and --size ROWSxCOLS")
            name = genre_named(inputs[0]).name
            genre_options = _generator_options(name, {k: v for k, v in given.items()
                                                      if k in _GENRE_OPTIONS["generate"]})
            level = genre_options.pop("level", None)
            rows, cols = _size(size)
            from . import generators

            generators.check_request(name, rows, cols, level, flavour, genre_options, common["limits"])
            spec = batches.Verb("generate", genre=name, rows=rows, cols=cols, level=level,
                                flavour=flavour, genre_options=genre_options, **common)
            tasks = list(batches.generation_tasks(spec, count, seed))
        else:
            wrong = [k for k in given if k not in _GENRE_OPTIONS["audit"]]
            if wrong:
                raise click.UsageError(f"{_GENRE_OPTIONS['generate'][wrong[0]][0]} is for generate")
            genre = None if opts["genre"] is None else genre_named(opts["genre"]).name
            spec = batches.Verb(verb, genre=genre, unique=unique, grade=grade, meta=given,
                                cap=cap if verb == "ambiguity" else 0,
                                **{**common, "solver": solver or DEFAULT_SOLVER})
            spec.options().check_solver()  # type: ignore[union-attr]
            tasks = list(batches.input_tasks(spec, inputs, lines))
        if scheduler or dask_local:
            executor: Any = Dask(scheduler, dask_local)
        elif jobs > 1:
            executor = LocalPool(_workers(jobs, len(tasks)))
        else:
            executor = batches.InProcess()
        bar = Bar(verb, sys.stderr.isatty() if progress is None else progress)
        try:
            outcome = batches.run(spec, tasks, store_path, shlex.join(["satgrid", *sys.argv[1:]]),
                                  executor, seed if verb == "generate" else None, bar)
        finally:
            bar.close()
        click.echo(outcome.summary())


@batch.command("export")
@click.argument("store_path", metavar="STORE")
@click.option("--to", "to", type=click.Choice(["jsonl", "csv", "parquet"]), required=True,
              help="parquet needs pyarrow (satgrid[parquet]).")
@click.option("-o", "--output", required=True, help="Output file (written whole, then renamed).")
def batch_export(store_path: str, to: str, output: str) -> None:
    """Export the results of STORE, one row per task."""
    from .batch.store import Store, export

    with reported_errors(), Store(store_path) as store:
        n = export(store, output, to)
        click.echo(f"wrote {n} rows to {output}", err=True)


@batch.command("verify")
@click.argument("store_path", metavar="STORE")
@click.option("--sample", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many stored solutions to re-check.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the random sample.")
def batch_verify(store_path: str, sample: int, seed: int) -> None:
    """Re-check a random sample of STORE's solutions with the genres' independent checkers
    (exit 1 if one fails)."""
    from .batch.store import Store
    from .batch.verify import verify

    with reported_errors(), Store(store_path) as store:
        found = verify(store, sample, seed)
        for problem in found.problems:
            click.echo(f"satgrid: {problem}", err=True)
        click.echo(f"checked {found.checked} of {found.stored} stored solutions: "
                   + (f"{len(found.problems)} failed" if found.problems else "all pass the checker"))
    if found.problems:
        sys.exit(1)


def _add_batch_genre_options() -> set[str]:
    """Give ``batch run`` the genres' options of ``audit`` (puzzle headers) and of ``generate``
    (generator keywords), as those commands have them; return their names."""
    added: set[str] = set()
    for command in ("audit", "generate"):
        for param in main.commands[command].params:
            if param.name in _GENRE_OPTIONS.get(command, {}) and param.name not in added:
                batch_run.params.append(click.Option(param.opts, metavar=param.metavar, help=param.help,
                                                     is_flag=param.is_flag, default=None))
                added.add(param.name)
    return added


_BATCH_GENRE_OPTIONS = _add_batch_genre_options()
