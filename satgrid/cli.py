"""The ``satgrid`` command: a thin click layer over :mod:`satgrid.api`.

Exit status: 0 every puzzle processed (whatever its status), 1 an error, 2 bad usage, 3 with
``--require-unique`` when some puzzle is not uniquely solved.
"""
from __future__ import annotations

import contextlib
import functools
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

import click

from . import __version__, api, dimacs, formats, grading, render_svg
from .errors import SatgridError
from .puzzle import cell_name
from .reader import Limits, is_decimal, read_text
from .registry import GENRES
from .solver import DEFAULT_SOLVER


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="satgrid")
def main() -> None:
    """SAT-encoding compiler and solver harness for grid logic puzzles."""


def input_options(f):
    f = click.option("--genre", help="Genre of the input (else read from the file's header).")(f)
    f = click.option("--symbols", help="Sudoku symbol set, e.g. 123456789ABCDEFG for 16x16.")(f)
    f = click.option("--box", help="Sudoku box shape HxW (height x width), e.g. 2x3.")(f)
    return limit_options(f)


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


def solve_options(f):
    f = input_options(f)
    f = click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
                     help="python-sat solver name (cadical153, cadical195, minisat22, glucose4, ...), or "
                          "external:cadical, external:minisat, external:picosat, "
                          "external:cryptominisat5, external:/path/to/binary (a separate SAT "
                          "binary, run once per SAT call).")(f)
    f = click.option("--time-limit", type=click.FloatRange(min=0), help="Seconds per puzzle.")(f)
    f = click.option("--conflict-limit", type=click.IntRange(min=1), help="Conflicts per SAT call.")(f)
    f = click.option("--connectivity", type=click.Choice(["lazy", "eager"]), default="lazy",
                     show_default=True, help="Lowering of connectivity and loop rules.")(f)
    f = click.option("--format", "fmt", type=click.Choice(["text", "json", "pzprv3"]), default="text",
                     show_default=True,
                     help="pzprv3: puzz.link's file format with the solution filled in.")(f)
    f = click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Worker processes for files with many puzzles.")(f)
    f = click.option("--require-unique", is_flag=True,
                     help="Exit 3 unless every puzzle has exactly one solution.")(f)
    return f


@main.command()
@click.argument("files", nargs=-1, required=True)
@solve_options
@click.option("--unique", is_flag=True, help="Also prove the solution unique (or show a second).")
def solve(files: tuple[str, ...], unique: bool, **opts: Any) -> None:
    """Solve the puzzles in FILES (- for standard input)."""
    _run(files, unique=unique or opts["require_unique"], audit=False, minimize=False, **opts)


@main.command()
@click.argument("files", nargs=-1, required=True)
@solve_options
@click.option("--minimize", is_flag=True, help="Also find a minimal clue subset (greedy deletion).")
@click.option("--grade/--no-grade", default=True, show_default=True,
              help="Also grade the puzzle on the propagation ladder (see satgrid grade).")
def audit(files: tuple[str, ...], minimize: bool, grade: bool, **opts: Any) -> None:
    """Solve, prove uniqueness, list the clues that can go (clue minimality), and grade."""
    _run(files, unique=True, audit=True, minimize=minimize, grade=grade, **opts)


@main.command()
@click.argument("file")
@input_options
@click.option("--dimacs", "as_dimacs", is_flag=True, required=True, help="Write DIMACS CNF.")
@click.option("-o", "--output", help="Output file, directory, or - for stdout [default: cnf_out/].")
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]), default="eager",
              show_default=True, help="eager = the CNF alone is exact; lazy = base CNF only.")
@click.option("--no-clues", is_flag=True, help="Leave the clues out (the empty grid's rules).")
@click.option("--clue-selectors", is_flag=True, help="Put each clue behind a selector variable.")
def encode(file: str, as_dimacs: bool, output: str | None, connectivity: str, no_clues: bool,
           clue_selectors: bool, **opts: Any) -> None:
    """Export each puzzle in FILE as DIMACS with a variable map (.map.json)."""
    with reported_errors():
        if no_clues and clue_selectors:
            raise click.UsageError("--no-clues and --clue-selectors exclude each other")
        puzzles = _load((file,), opts)
        mode = "none" if no_clues else "selectors" if clue_selectors else "plain"
        stem = "stdin" if file == "-" else Path(file).stem
        for index, puzzle in enumerate(puzzles, 1):
            export = dimacs.build(puzzle, connectivity, mode)
            if output == "-":
                click.echo(export.text, nl=False)
                continue
            name = stem if len(puzzles) == 1 else f"{stem}-{_slug(puzzle.name or str(index))}"
            target = Path(output) if output else Path("cnf_out")
            if output is None or target.is_dir() or len(puzzles) > 1:
                target = target / f"{name}.cnf"
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
        source, text = read_text(model)
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
            more = f" (and {len(decoded.problems) - 3} more)" if len(decoded.problems) > 3 else ""
            if decoded.broken_rules:
                why = (f"it breaks the {', '.join(decoded.broken_rules)} rule, which a lazy export "
                       f"leaves out (re-export with --connectivity eager): {why}")
            raise SatgridError(f"{source}: not a solution of puzzle {name}: {why}{more}")
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
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def demo(fmt: str) -> None:
    """Audit the bundled example puzzles of every genre (solve + uniqueness + clue audit)."""
    files = [str(resources.files("satgrid") / "data" / g.examples) for g in GENRES.values()]
    _run(tuple(files), unique=True, audit=True, minimize=False, fmt=fmt, genre=None, symbols=None,
         box=None, solver=DEFAULT_SOLVER, time_limit=None, conflict_limit=None,
         connectivity="lazy", jobs=1, require_unique=False)


@main.command()
@click.argument("source", metavar="INPUT")
@click.option("--to", "target", type=click.Choice([*formats.TARGETS, "svg"]), required=True,
              help="url: puzz.link; pzprv3: puzz.link's file; text: satgrid's text; tatham: a Solo "
                   "or Loopy game ID; ipuz: ipuz Sudoku JSON; svg: a drawing.")
@click.option("-o", "--output", help="Output file [default: standard output]; with several puzzles, "
                                      "svg and ipuz go to OUTPUT-1.ext, OUTPUT-2.ext, ...")
@click.option("--solution", is_flag=True, help="Solve and include the solution (pzprv3, ipuz, svg).")
@input_options
def convert(source: str, target: str, output: str | None, solution: bool, **opts: Any) -> None:
    """Convert the puzzles in INPUT (a file, a puzz.link URL or a game ID) to another format."""
    with reported_errors():
        puzzles = _load((source,), opts)
        solutions = [api.solve(p).solution if solution else None for p in puzzles]
        if target in ("svg", "ipuz"):
            texts = [render_svg.svg(p, s) if target == "svg" else formats.write(p, target, s)
                     for p, s in zip(puzzles, solutions)]
            _emit(texts, output, target)
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
@input_options
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True, help="python-sat solver name.")
@click.option("--time-limit", type=click.FloatRange(min=0), help="Seconds per puzzle.")
def render(file: str, output: str, solution: bool, audit: bool, solver: str, time_limit: float | None,
           **opts: Any) -> None:
    """Draw the puzzles in FILE as SVG or PNG, with --solution their solutions."""
    with reported_errors():
        puzzles = _load((file,), opts)
        drawings = []
        for puzzle in puzzles:
            first = second = None
            redundant: list = []
            if solution or audit:
                result = api.solve(puzzle, unique=True, audit=audit,
                                   options=api.Options(solver=solver, time_limit=time_limit))
                if result.solution is None:
                    click.echo(f"satgrid: {result.id}: {result.status}, drawn without a solution", err=True)
                if solution:
                    first, second = result.solution, result.second_solution
                redundant = result.redundant_clues or []
            drawings.append(render_svg.svg(puzzle, first, second, redundant))
        _emit(drawings, output, "svg")


@main.command()
@click.argument("genre")
@click.option("--size", required=True, metavar="ROWSxCOLS",
              help="Grid size, rows x columns as every size satgrid prints: 10x15 is 10 rows of "
                   "15 cells.")
@click.option("--level", type=click.IntRange(1, 5),
              help="Sudoku level: 1 extremely easy ... 5 evil (clue-minimal) [default: 5].")
@click.option("--flavour", type=click.Choice(["normal", "hard"]),
              help="hard: clue-minimal; normal: Slitherlink/Nurikabe solvable by propagation, "
                   "Sudoku level 3 [default: hard].")
@click.option("--ratios", metavar="A/B/C",
              help="Slitherlink: weights of the loop-growth rules shrink/extend/fatten "
                   "[default: 33/33/34; 33/67/0 tight corridors, 33/7/60 broad loops].")
@click.option("--islands", metavar="LO-HI",
              help="Nurikabe: the island sizes of the random solution [default: 1-6].")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=click.IntRange(min=0),
              help="Run seed (default: random); each puzzle reports its own seed, and --seed "
                   "with it and --count 1 makes that puzzle again.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes.")
@click.option("--solver", default=None,
              help="python-sat solver name for generating and auditing [default: the generator's "
                   "own: minisat-gh for Slitherlink, cadical153 for the others].")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@size_limit_options
def generate(genre: str, size: str, level: int | None, flavour: str | None, ratios: str | None,
             islands: str | None, count: int, seed: int | None, jobs: int, solver: str | None,
             fmt: str, max_cells: int, max_clauses: int) -> None:
    """Make COUNT unique puzzles of GENRE; each is audited (unique, minimal where promised,
    solution checked) before it is printed."""
    import random

    from . import generators
    from .registry import genre as genre_named

    with reported_errors():
        if level is not None and flavour is not None:
            raise click.UsageError("give --level or --flavour, not both")
        rows, cols = _size(size)
        name = genre_named(genre).name
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 32)
        genre_options = _genre_options(name, ratios, islands)
        limits = Limits(cells=max_cells, clauses=max_clauses)
        generators.check_request(name, rows, cols, level, flavour, genre_options, limits)
        options = api.Options(solver=solver) if solver is not None else None
        stream = generators.generate_puzzles(name, rows, cols, count, seed, level, flavour,
                                             options, genre_options, jobs=jobs, limits=limits)
        with contextlib.ExitStack() as stack:
            if count > 1 and sys.stderr.isatty():
                stream = stack.enter_context(click.progressbar(stream, length=count, file=sys.stderr,
                                                               label="generating"))
            for item in stream:
                if fmt == "json":
                    click.echo(json.dumps(item.to_json()))
                else:
                    click.echo(_generated_text(item))


def _genre_options(genre: str, ratios: str | None, islands: str | None) -> dict[str, Any]:
    """``--ratios`` and ``--islands`` as generator keywords (each for its own genre only)."""
    out: dict[str, Any] = {}
    for flag, text, owner, sep, count in (("--ratios", ratios, "slitherlink", "/", 3),
                                          ("--islands", islands, "nurikabe", "-", 2)):
        if text is None:
            continue
        if genre != owner:
            raise click.UsageError(f"{flag} is for {owner}, not {genre}")
        try:
            numbers = tuple(int(x) for x in text.split(sep))
        except ValueError:
            numbers = ()
        if len(numbers) != count or min(numbers) < 0:
            example = "33/33/34" if count == 3 else "2-5"
            raise click.BadParameter(f"{text!r} is not {count} numbers joined by {sep!r} "
                                     f"(e.g. {example})", param_hint=flag)
        out["ratios" if count == 3 else "islands"] = numbers
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
    if "paper_level" in item.extra:
        facts["paper-level"] = item.extra["paper_level"]
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
@click.option("--time-limit", type=click.FloatRange(min=0), help="Seconds per puzzle for the grade.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def grade(files: tuple[str, ...], connectivity: str, solver: str, time_limit: float | None, fmt: str,
          **opts: Any) -> None:
    """Grade puzzles on the propagation ladder: 0 = unit propagation solves it, 1 = failed-literal
    probing does, 2 = it needs search (or has no unique solution). See encodings/grading.md."""

    with reported_errors():
        puzzles = _load(files, opts)
        rows = []
        for puzzle in puzzles:
            result = api.solve(puzzle, unique=True, options=api.Options(solver=solver, time_limit=time_limit))
            graded = grading.assess(puzzle, solver, connectivity, time_limit)  # type: ignore[arg-type]
            rows.append((result, graded))
            if fmt == "json":
                out = {"id": result.id, "genre": puzzle.genre, "rows": puzzle.rows, "cols": puzzle.cols,
                       "status": result.status, **graded.to_json()}
                click.echo(json.dumps(out))
        if fmt == "text":
            click.echo(f"{'id':<24} {'genre':<11} {'size':>7} {'clues':>5} {'status':<13} {'grade':>5} "
                       f"{'method':<22} {'propagation':>11} {'probing':>9} {'ms':>9}")
            for result, graded in rows:
                p = result.puzzle
                level = "-" if graded.level is None else str(graded.level)
                method = graded.note if graded.level is None else grading.LEVELS[graded.level]
                click.echo(f"{result.id[:24]:<24} {p.genre:<11} {f'{p.rows}x{p.cols}':>7} "
                           f"{len(p.clues()):>5} {result.status:<13} {level:>5} {method[:22]:<22} "
                           f"{f'{graded.fixed_by_propagation}/{graded.primary}':>11} "
                           f"{f'{graded.fixed_by_probing}/{graded.primary}':>9} {graded.time_s * 1000:>9.1f}")


@main.command()
@click.argument("file")
@click.option("--state", "state_path", metavar="PARTIAL",
              help="A partial solution in the genre's state format: Sudoku the grid with more "
                   "digits ('.' undecided); Nurikabe '#' black, '.' white, '?' undecided, numbers "
                   "as in the puzzle; Slitherlink the dot lattice as 'solve' prints it, '-'/'|' on "
                   "the loop, 'x' crossed, blank undecided.")
@click.option("--puzzle", "puzzle_id", help="Which puzzle of FILE (when it holds several).")
@input_options
@click.option("--connectivity", type=click.Choice(["eager", "lazy"]), default="lazy", show_default=True)
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True,
              help="python-sat solver with unit propagation and cores.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def hint(file: str, state_path: str | None, puzzle_id: str | None, connectivity: str, solver: str,
         fmt: str, **opts: Any) -> None:
    """The next forced cell (or edge) of the puzzle in FILE, from the empty grid or from
    --state PARTIAL, proved by the weakest ladder level that can (unit propagation, failed-literal
    probing, search), with the clues involved. A state that contradicts the solution is reported
    as wrong."""

    with reported_errors():
        puzzle = _pick_puzzle(_load((file,), opts), puzzle_id, None, file)
        state = None
        if state_path is not None:
            source, text = read_text(state_path)
            state = grading.read_state(puzzle, text, source)
        answer = grading.hint(puzzle, state, solver, connectivity)  # type: ignore[arg-type]
        if fmt == "json":
            click.echo(json.dumps({"id": puzzle.name or str(puzzle.source), "genre": puzzle.genre,
                                   **answer.to_json()}))
        else:
            click.echo(answer.message)


# -- helpers ------------------------------------------------------------------------------------
def _emit(texts: list[str], output: str | None, ext: str) -> None:
    """Write one text to ``output`` (or stdout), several to OUTPUT-1.ext, OUTPUT-2.ext, ..."""
    if output in (None, "-"):
        if len(texts) > 1:
            raise SatgridError(f"{len(texts)} puzzles: give -o NAME.{ext} to write NAME-1.{ext}, ...")
        click.echo(texts[0], nl=False)
        return
    path = Path(output)
    targets = [path] if len(texts) == 1 else [
        path.with_name(f"{path.stem}-{i}{path.suffix or '.' + ext}") for i in range(1, len(texts) + 1)]
    for target, text in zip(targets, texts):
        try:
            if ext == "svg":
                render_svg.write(text, str(target))
            else:
                target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise SatgridError(f"{target}: cannot write: {exc.strerror}") from None
        click.echo(f"wrote {target}", err=True)


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
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)


def _load(files: tuple[str, ...], opts: dict[str, Any]) -> list[Any]:
    meta = {"symbols": opts.get("symbols"), "box": opts.get("box")}
    return api.load(files, opts.get("genre"), meta, _limits(opts))


def _work(puzzle: Any, unique: bool, audit: bool, minimize: bool, grade: bool,
          options: api.Options) -> api.Result:
    return api.solve(puzzle, unique=unique, audit=audit, minimize=minimize, options=options,
                     grade=grade)


def _run(files, unique, audit, minimize, fmt, jobs, require_unique, grade=True, **opts) -> None:
    with reported_errors():
        puzzles = _load(files, opts)
        options = api.Options(opts["solver"], opts["time_limit"], opts["conflict_limit"],
                              opts["connectivity"])
        api.session_for(puzzles[0], options)  # a bad solver name fails here, before any work
        work = functools.partial(_work, unique=unique, audit=audit, minimize=minimize, grade=grade,
                                 options=options)
        results = []
        with contextlib.ExitStack() as stack:
            if jobs > 1 and len(puzzles) > 1:
                pool = stack.enter_context(ProcessPoolExecutor(jobs))
                stream = pool.map(work, puzzles, chunksize=max(1, len(puzzles) // (jobs * 8)))
            else:
                stream = map(work, puzzles)
            if len(puzzles) > 1 and sys.stderr.isatty():
                stream = stack.enter_context(click.progressbar(stream, length=len(puzzles), file=sys.stderr,
                                                               label="solving"))
            for result in stream:
                results.append(result)
                if fmt == "json":
                    click.echo(json.dumps(result.to_json()))
                elif fmt == "pzprv3":
                    click.echo(formats.write(result.puzzle, "pzprv3", result.solution), nl=False)
                    if result.solution is None:
                        click.echo(f"satgrid: {result.id}: {result.status}, written without an answer", err=True)
        if fmt == "text":
            click.echo(_text_report(results, audit, minimize))
        if len(results) > 1:
            click.echo(_summary(results), err=fmt != "text")
    if require_unique and any(r.status != "unique" for r in results):
        sys.exit(3)


def _clue_list(keys: list) -> str:
    return ", ".join(cell_name(*k) for k in keys) if keys else "none"


def _text_report(results: list[api.Result], audit: bool, minimize: bool) -> str:
    if len(results) == 1:
        return _one_report(results[0], audit, minimize)
    header = f"{'id':<24} {'genre':<11} {'size':>7} {'clues':>5} {'status':<13}"
    if audit:
        header += f" {'redundant':>9} {'minimal':>7} {'grade':>5}"
    header += f" {'sat calls':>9} {'ms':>9}"
    lines = [header]
    for r in results:
        p = r.puzzle
        row = f"{r.id[:24]:<24} {p.genre:<11} {f'{p.rows}x{p.cols}':>7} {len(p.clues()):>5} {r.status:<13}"
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
    lines = [f"puzzle {r.id} ({g.name} {p.rows}x{p.cols}, {len(p.clues())} clues): {r.status}"]
    if r.note:
        lines.append(f"note: {r.note}")
    if r.solution is not None:
        lines.append(g.render(p, r.solution))
    if r.second_solution is not None:
        diff = g.differences(p, r.solution, r.second_solution)
        lines.append(f"second solution ({len(diff)} differences):")
        lines.append(g.render(p, r.second_solution))
    if r.redundant_clues is not None:
        verdict = "minimal" if r.minimal else "not minimal"
        lines.append(f"redundant clues: {_clue_list(r.redundant_clues)} "
                     f"({len(r.redundant_clues)} of {len(p.clues())}): {verdict}")
    if r.grade is not None:
        lines.append(f"grade {r.grade}: solved by {grading.LEVELS[r.grade]}")
    if r.minimal_clues is not None:
        lines.append(f"a minimal clue set keeps {len(r.minimal_clues)} of {len(p.clues())} clues:")
        lines.append(g.render(p.with_clues({k: p.clues()[k] for k in r.minimal_clues})))
    s = r.stats
    lines.append(f"solver {r.solver}: {s.sat_calls} SAT calls, {s.cegar_iterations} CEGAR "
                 f"iterations, {s.cuts} cuts, {s.time_s * 1000:.2f} ms")
    return "\n".join(lines)


def _summary(results: list[api.Result]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    total = sum(r.stats.time_s for r in results)
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    return (f"{len(results)} puzzles: {parts}; {total:.3f} s solver time, "
            f"{total / len(results) * 1000:.2f} ms per puzzle")
