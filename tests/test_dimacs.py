"""DIMACS export and reading models back: round trips through python-sat's reader, byte-identical
exports (across hash seeds), the header and sidecar, the clue-selector recipe against the audit,
model files in every form, and `satgrid decode` (solutions, lazy models that break a rule, models of
another export, bad files)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pysat.formula import CNF
from pysat.solvers import Solver

from satgrid import __version__, api, dimacs
from satgrid.cli import main
from satgrid.errors import ParseError, SatgridError
from satgrid.registry import GENRES

from .helpers import shared_file

ROOT = Path(__file__).resolve().parents[1]
SMALL = {
    "sudoku": "genre: sudoku\nbox: 2x2\n..2.\n2...\n...3\n.4..\n",
    "slitherlink": "genre: slitherlink\n.31\n...\n131\n",
    "nurikabe": "genre: nurikabe\n. 1 . . .\n. . . . 2\n. . . . .\n3 . . . .\n. . . 2 .\n",
}
GLOBAL = {"slitherlink", "nurikabe"}
#: Puzzles whose lazy export (base CNF without the global rule) has models that break the rule.
LOOSE = {"slitherlink": "genre: slitherlink\n3..\n...\n..3\n", "nurikabe": SMALL["nurikabe"]}


def small(genre: str):
    if genre not in GENRES:
        pytest.skip(f"genre {genre} is not registered in satgrid/registry.py yet")
    [puzzle] = api.load_text(SMALL[genre])
    return puzzle


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def solve_cnf(clauses, assumptions=()) -> list[int] | None:
    with Solver(name="cadical153", bootstrap_with=clauses) as s:
        return s.get_model() if s.solve(assumptions=assumptions) else None


# -- the file -----------------------------------------------------------------------------------
@pytest.mark.parametrize("clues", ["plain", "selectors", "none"])
@pytest.mark.parametrize("connectivity", ["eager", "lazy"])
@pytest.mark.parametrize("genre", list(SMALL))
def test_round_trip_through_pysat_gives_the_same_clauses(tmp_path, genre, connectivity, clues):
    puzzle = small(genre)
    export = dimacs.build(puzzle, connectivity, clues)
    path = tmp_path / "p.cnf"
    sidecar = dimacs.write(export, path)
    cnf = CNF(from_file=str(path))
    assert cnf.clauses == [list(c) for c in export.clauses]
    assert cnf.nv == export.varmap["variables"]  # the exact count: the largest variable used
    varmap = json.loads(sidecar.read_text())
    assert varmap == json.loads(json.dumps(export.varmap))
    text = path.read_text()
    listed = {line.split(" ", 4)[3]: json.loads(line.split(" ", 4)[4])
              for line in text.splitlines() if line.startswith("c satgrid var ")}
    assert listed == varmap["primary"] and len(listed) == len(export.encoding.primary)
    assert f"c variables {cnf.nv} clauses {len(cnf.clauses)} primary {len(listed)} " in text
    assert f"c satgrid {__version__} DIMACS export" in text and f"c genre {genre}" in text
    assert f"c size {puzzle.rows}x{puzzle.cols}" in text and f"c clues {clues}" in text
    warned = "connectivity/loop rules are NOT in this CNF" in text
    assert warned == (genre in GLOBAL and connectivity == "lazy")
    selectors = [line for line in text.splitlines() if line.startswith("c satgrid selector ")]
    assert len(selectors) == (len(puzzle.clues()) if clues == "selectors" else 0)


@pytest.mark.parametrize("genre", list(SMALL))
def test_exports_are_byte_identical_across_runs_and_hash_seeds(tmp_path, genre):
    small(genre)
    path = tmp_path / "p.txt"
    path.write_text(SMALL[genre])
    outputs = []
    for seed in ("0", "12345"):
        out = tmp_path / f"out{seed}.cnf"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "satgrid", "encode", str(path), "--dimacs",
                        "--clue-selectors", "-o", str(out)], cwd=ROOT, env=env, check=True,
                       capture_output=True)
        outputs.append((out.read_bytes(), out.with_suffix(".map.json").read_bytes()))
    assert outputs[0] == outputs[1]
    puzzle = small(genre)
    assert dimacs.build(puzzle).text == dimacs.build(puzzle).text


def test_no_clues_export_has_every_solution_of_the_empty_grid():
    export = dimacs.build(small("sudoku"), clues="none")
    primary = [int(v) for v in export.varmap["primary"]]
    count = 0
    with Solver(name="cadical153", bootstrap_with=export.clauses) as s:
        while s.solve():
            model = set(s.get_model())
            s.add_clause([-v for v in primary if v in model])
            count += 1
    assert count == 288  # the number of 4x4 Sudoku grids


@pytest.mark.parametrize("genre", list(SMALL))
def test_clue_selector_recipe_agrees_with_the_audit(genre):
    """The header's recipe: the puzzle = CNF + every selector as a unit; clue k is redundant iff
    CNF + the other selectors + a clause blocking the solution is UNSAT."""
    puzzle = small(genre)
    audit = api.solve(puzzle, audit=True)
    assert audit.status == "unique"
    export = dimacs.build(puzzle, "eager", "selectors")
    selectors = {int(v): tuple(map(_hashable, kv)) for v, kv in export.varmap["selectors"].items()}
    model = solve_cnf(export.clauses, list(selectors))
    assert model is not None
    decoded = dimacs.decode_model(puzzle, tuple(model), "eager", "selectors")
    assert decoded.problems == [] and decoded.solution == audit.solution
    primary = [int(v) for v in export.varmap["primary"]]
    block = [-v if model[v - 1] > 0 else v for v in primary]
    redundant = []
    for sel, (key, _value) in selectors.items():
        others = [s for s in selectors if s != sel]
        if solve_cnf([*export.clauses, block], others) is None:
            redundant.append(key)
    assert sorted(redundant) == sorted(audit.redundant_clues)
    # without any selector the clues are off: the empty grid's rules only
    assert solve_cnf([*export.clauses, block]) is not None


def _hashable(x):
    return tuple(map(_hashable, x)) if isinstance(x, list) else x


# -- model files --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, status, literals",
    [
        ("c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n", "sat", (1, -2, 3)),
        ("s UNSATISFIABLE\n", "unsat", ()),
        ("s INDETERMINATE\n", "unknown", ()),
        ("WARNING: whatever\nSATISFIABLE\ns SATISFIABLE\nv -1 0\n", "sat", (-1,)),
        ("SAT\n1 -2 3 0\n", "sat", (1, -2, 3)),
        ("UNSAT\n", "unsat", ()),
        ("INDET\n", "unknown", ()),
        ("1 -2\n3 0\n", "sat", (1, -2, 3)),
    ],
)
def test_read_model_forms(text, status, literals):
    assert dimacs.read_model(text) == dimacs.Model(status, literals)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty model file"),
        ("hello world\n", "m:1: expected SAT-competition output"),
        ("s SATISFIABLE\nv 1 x 0\n", "m:2: garbage in an assignment"),
        ("s SATISFIABLE\nv 1 2\n", "does not end in 0: the file is cut short?"),
        ("s SATISFIABLE\nv 1 0 2 0\n", "must be one list ending in 0"),
        ("s SATISFIABLE\n", "a SAT answer without an assignment (no 'v' lines)"),
        ("s SATISFIABLE\ns UNSATISFIABLE\n", "m:2: a second, different result line"),
        ("s PERHAPS\n", "unknown result line"),
        ("SAT\n1 -1 0\n", "sets variable 1 both ways"),
        ("UNSAT\n1 0\n", "UNSAT answer followed by literals"),
    ],
)
def test_read_model_garbage_is_a_parse_error(text, message):
    with pytest.raises(ParseError) as caught:
        dimacs.read_model(text, "m")
    assert message in str(caught.value)


# -- satgrid decode -----------------------------------------------------------------------------
def export_and_solve(tmp_path: Path, genre: str, *options: str) -> tuple[Path, Path, Path]:
    """The puzzle file, the export and a model of it from pysat (written as 'v' lines)."""
    small(genre)
    puzzle_file = tmp_path / "p.txt"
    puzzle_file.write_text(SMALL[genre])
    cnf = tmp_path / "p.cnf"
    assert run("encode", str(puzzle_file), "--dimacs", "-o", str(cnf), *options).exit_code == 0
    model = solve_cnf(CNF(from_file=str(cnf)).clauses)
    assert model is not None
    model_file = tmp_path / "model.txt"
    model_file.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    return puzzle_file, cnf, model_file


@pytest.mark.parametrize("genre", list(SMALL))
def test_decode_prints_the_checked_solution(tmp_path, genre):
    puzzle_file, cnf, model_file = export_and_solve(tmp_path, genre)
    puzzle = small(genre)
    want = api.solve(puzzle)
    g = GENRES[genre]
    result = run("decode", str(puzzle_file), str(model_file))
    assert result.exit_code == 0, result.output
    assert "is a solution (checked)" in result.stdout
    assert g.render(puzzle, want.solution) in result.stdout
    as_json = json.loads(run("decode", str(puzzle_file), str(model_file), "--map",
                             str(cnf.with_suffix(".map.json")), "--format", "json").stdout)
    assert as_json["status"] == "solved" and as_json["solution"] == g.solution_json(puzzle, want.solution)


def test_decode_reads_minisat_result_files(tmp_path):
    puzzle_file, cnf, model_file = export_and_solve(tmp_path, "sudoku")
    literals = model_file.read_text().split("\n")[1][2:]
    minisat = tmp_path / "minisat.out"
    minisat.write_text("SAT\n" + literals + "\n")
    result = run("decode", str(puzzle_file), str(minisat))
    assert result.exit_code == 0 and "4321" not in result.stderr
    assert "is a solution (checked)" in result.stdout


def lazy_model_that_breaks_the_rule(tmp_path: Path, genre: str) -> tuple[Path, Path, Path]:
    """A model of the lazy export whose loop or connectivity is broken."""
    small(genre)
    puzzle_file = tmp_path / "p.txt"
    puzzle_file.write_text(LOOSE[genre])
    [puzzle] = api.load_text(LOOSE[genre])
    cnf = tmp_path / "lazy.cnf"
    assert run("encode", str(puzzle_file), "--dimacs", "-o", str(cnf), "--connectivity",
               "lazy").exit_code == 0
    varmap = json.loads(cnf.with_suffix(".map.json").read_text())
    primary = [int(v) for v in varmap["primary"]]
    g = GENRES[genre]
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        while s.solve():
            model = s.get_model()
            decoded = dimacs.decode_model(puzzle, tuple(model), "lazy", "plain")
            if decoded.broken_rules:
                assert g.check(puzzle, decoded.solution)  # the checker agrees
                model_file = tmp_path / "broken.txt"
                model_file.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
                return puzzle_file, cnf, model_file
            s.add_clause([-v if model[v - 1] > 0 else v for v in primary])
    pytest.fail("the lazy export has no model that breaks the rule")


@pytest.mark.parametrize("genre", sorted(GLOBAL))
def test_decode_reports_a_lazy_model_that_breaks_a_global_rule(tmp_path, genre):
    puzzle_file, cnf, model_file = lazy_model_that_breaks_the_rule(tmp_path, genre)
    for args in (["--connectivity", "lazy"], ["--map", str(cnf.with_suffix(".map.json"))]):
        result = run("decode", str(puzzle_file), str(model_file), *args)
        assert result.exit_code == 1 and result.stdout == ""
        assert "not a solution of puzzle" in result.stderr
        assert ", which a lazy export leaves out" in result.stderr
    # read as a model of the eager export it is not a model at all
    result = run("decode", str(puzzle_file), str(model_file))
    assert result.exit_code == 1 and "it is not a model of this export" in result.stderr


def test_decode_refuses_models_of_another_export(tmp_path):
    puzzle_file, cnf, model_file = export_and_solve(tmp_path, "sudoku", "--no-clues")
    # a grid of the clue-less export that breaks the given 2 at (0, 2): a 1 there instead
    varmap = json.loads(cnf.with_suffix(".map.json").read_text())
    one = next(int(v) for v, key in varmap["primary"].items() if key == ["digit", 0, 2, 1])
    model = solve_cnf(CNF(from_file=str(cnf)).clauses, [one])
    model_file.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    # read as a model of the export with clues: the clue's unit clause is falsified
    result = run("decode", str(puzzle_file), str(model_file))
    assert result.exit_code == 1 and "falsifies clause" in result.stderr
    assert "it is not a model of this export" in result.stderr
    # with the right options it is a model, and the checker rejects the grid
    result = run("decode", str(puzzle_file), str(model_file), "--no-clues")
    assert result.exit_code == 1 and "not a solution of puzzle" in result.stderr
    assert "given" in result.stderr.lower() or "clue" in result.stderr.lower()
    # a map of another puzzle
    other = tmp_path / "other.txt"
    other.write_text(SMALL["slitherlink"])
    run("encode", str(other), "--dimacs", "-o", str(tmp_path / "other.cnf"))
    result = run("decode", str(puzzle_file), str(model_file), "--map", str(tmp_path / "other.map.json"))
    assert result.exit_code == 1 and "does not match a fresh export" in result.stderr
    result = CliRunner().invoke(main, ["decode", str(puzzle_file), str(model_file), "--map",
                                       str(tmp_path / "other.map.json"), "--connectivity", "lazy"])
    assert result.exit_code == 2 and "--map gives the export options" in result.output


@pytest.mark.parametrize(
    "content, message",
    [
        ("s UNSATISFIABLE\n", "the solver answered UNSAT: no model to decode"),
        ("s UNKNOWN\n", "the solver answered UNKNOWN"),
        ("s SATISFIABLE\nv 1 2 3 0\n", "the model gives no value to 61 of the 64 primary variables"),
        ("s SATISFIABLE\nv 1 two 0\n", "model.txt:2: garbage in an assignment"),
    ],
)
def test_decode_bad_models_are_one_line_errors(tmp_path, content, message):
    puzzle_file, _, model_file = export_and_solve(tmp_path, "sudoku")
    model_file.write_text(content)
    result = run("decode", str(puzzle_file), str(model_file))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("satgrid: error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_decode_picks_a_puzzle_from_a_file_of_many(tmp_path):
    path = shared_file("sudoku", "tatham.txt")
    out = tmp_path / "out"
    assert run("encode", str(path), "--dimacs", "-o", str(out)).exit_code == 0
    cnf = out / "tatham-solo-3x3da-1.cnf"
    model = solve_cnf(CNF(from_file=str(cnf)).clauses)
    model_file = tmp_path / "m.txt"
    model_file.write_text("SAT\n" + " ".join(map(str, model)) + " 0\n")
    result = run("decode", str(path), str(model_file))
    assert result.exit_code == 1 and "holds 18 puzzles: name one with --puzzle ID" in result.stderr
    by_id = run("decode", str(path), str(model_file), "--puzzle", "solo-3x3da-1")
    by_map = run("decode", str(path), str(model_file), "--map", str(cnf.with_suffix(".map.json")))
    assert by_id.exit_code == by_map.exit_code == 0
    assert by_id.stdout == by_map.stdout and "solo-3x3da-1" in by_id.stdout
    with pytest.raises(SatgridError, match="no puzzle 'nope'"):
        from satgrid.cli import _pick_puzzle
        _pick_puzzle(api.load([str(path)]), "nope", None, str(path))
