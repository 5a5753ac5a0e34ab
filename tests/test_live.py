"""Live re-checks (satgrid.live.Editor) and ``satgrid watch``: every re-check after an edit agrees
with a fresh ambiguity report of the edited puzzle, for every genre, with and without the proofs
the editor keeps; re-checks reuse the previous check's solver; the watch command re-checks a file
edited under it (a real subprocess), prints one line for bad input and goes on, and ends cleanly
on Ctrl-C."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, formats
from satgrid.ambiguity import report
from satgrid.cli import main
from satgrid.errors import SatgridError
from satgrid.live import Editor
from satgrid.registry import GENRES
from tests.test_ambiguity import CASES, ambiguous, sample

ROOT = Path(__file__).resolve().parents[1]


def same(check, puzzle) -> None:
    """The live check agrees with a fresh report of ``puzzle`` (count capped at 2)."""
    fresh = report(puzzle, cap=2)
    assert check.status == fresh.status
    assert check.report.count == fresh.count and check.report.exact == fresh.exact
    assert set(check.report.undecided) == set(fresh.undecided)
    assert (check.report.solution is None) == (fresh.solution is None)
    if fresh.solution is not None:
        assert GENRES[puzzle.genre].check(puzzle, check.report.solution) == []


@pytest.mark.parametrize("keep_proofs", [True, False])
@pytest.mark.parametrize("name", sorted(CASES))
def test_edits_agree_with_fresh_reports(name: str, keep_proofs: bool) -> None:
    original, edited = sample(name), ambiguous(name)
    with Editor(original, keep_proofs=keep_proofs) as editor:
        first = editor.check()
        assert first.status == "unique"
        edit = CASES[name][1]
        if edit[0] == "remove":
            editor.remove_clue(edit[1])
        else:
            editor.load(edited)
        assert editor.puzzle == edited
        again = editor.check()
        same(again, edited)
        assert again.status == "multiple"
        if edit[0] == "remove":
            editor.set_clue(edit[1], original.clues()[edit[1]])
        else:
            editor.load(original)
        back = editor.check()
        same(back, original)
        assert back.reused  # the first check's session (api keeps it by the genre's cache key)
        if keep_proofs:
            assert back.how == "kept proof" and back.report.stats.sat_calls == 0
        else:
            assert back.how == "search"


def test_reuse_one_clue_gone_and_a_new_value() -> None:
    puzzle = sample("slitherlink")
    clues = puzzle.clues()
    with Editor(puzzle) as editor:
        assert not editor.check().reused
        # a clue whose removal keeps the puzzle unique: answered by one breaker question
        for key in clues:
            editor.remove_clue(key)
            check = editor.check()
            assert check.reused and check.how == "one clue gone"
            same(check, editor.puzzle)
            editor.set_clue(key, clues[key])
            assert editor.check().how == "kept proof"
        key = next(iter(clues))
        editor.set_clue(key, (clues[key] + 1) % 4)  # a new value: searched on the same solver
        check = editor.check()
        assert check.reused and check.how == "search"
        same(check, editor.puzzle)


def test_bad_edits() -> None:
    puzzle = sample("nurikabe")
    editor = Editor(puzzle)
    empty = next((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                 if (r, c) not in puzzle.clues())
    with pytest.raises(SatgridError):
        editor.set_clue(empty, 3)  # no number stands there: with_clues cannot put one
    with pytest.raises(SatgridError):
        editor.remove_clue(empty)
    assert editor.puzzle == puzzle


def test_unsatisfiable_and_limits() -> None:
    puzzle = sample("sudoku")
    clues = puzzle.clues()
    (r, c), d = next(iter(clues.items()))
    other = next(k for k in clues if k != (r, c) and (k[0] == r or k[1] == c))
    with Editor(puzzle) as editor:
        editor.set_clue(other, d)
        assert editor.check().status == "unsatisfiable"
    from satgrid.api import Options
    with Editor(ambiguous("slitherlink"), Options(time_limit=0)) as editor:
        check = editor.check()
        assert check.status == "unknown" and check.report.note


# -- satgrid watch -----------------------------------------------------------------------------
def write(path: Path, puzzle, tick: int) -> None:
    """Write ``puzzle`` and give the file a modification time of its own (``tick`` seconds on),
    so a change within one clock tick is still seen."""
    path.write_text(formats.write_all([puzzle], "text"))
    stamp = 1_700_000_000 + tick
    os.utime(path, (stamp, stamp))


def watch(path: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "satgrid", "watch", str(path), "--interval", "0.05",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_watch_follows_edits(tmp_path) -> None:
    path = tmp_path / "puzzle.txt"
    original, edited = sample("sudoku"), ambiguous("sudoku")
    write(path, original, 0)
    proc = watch(path, "--max-changes", "3")
    try:
        assert proc.stdout is not None
        assert "unique" in proc.stdout.readline()
        write(path, edited, 1)
        line = proc.stdout.readline()
        assert "multiple" in line and "undecided" in line and "same solver" in line
        path.write_text("genre: sudoku\n1 2 x\n")  # a half-written edit
        os.utime(path, (1_700_000_002, 1_700_000_002))
        line = proc.stdout.readline()
        assert " error: " in line and "puzzle.txt" in line
        write(path, original, 3)
        assert "unique" in proc.stdout.readline()
        assert proc.wait(timeout=60) == 0
        assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    finally:
        proc.kill()


def test_watch_ends_cleanly_on_ctrl_c(tmp_path) -> None:
    path = tmp_path / "puzzle.txt"
    write(path, sample("hitori"), 0)
    proc = watch(path)
    try:
        assert proc.stdout is not None and "unique" in proc.stdout.readline()
        proc.send_signal(signal.SIGINT)
        # communicate() drains both pipes while waiting (a child blocked on a full pipe would
        # look like a watch that ignores Ctrl-C)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"watch still running 60 s after Ctrl-C; stdout {out[-500:]!r}, stderr {err[-2000:]!r}")
        assert proc.returncode == 0, err[-2000:]
        assert "watch stopped" in err and "Traceback" not in err and len(err) < 1000, err[-2000:]
    finally:
        proc.kill()


def test_watch_once_json(tmp_path) -> None:
    path = tmp_path / "puzzle.txt"
    write(path, ambiguous("masyu"), 0)
    out = CliRunner().invoke(main, ["watch", str(path), "--once", "--format", "json"])
    assert out.exit_code == 0, out.output
    found = json.loads(out.output)
    fresh = report(ambiguous("masyu"), cap=2)
    assert found["status"] == "multiple" and found["undecided_count"] == len(fresh.undecided)
    assert found["same_solver"] in (True, False) and found["answered_by"] == "search"
    missing = CliRunner().invoke(main, ["watch", str(tmp_path / "nothing.txt"), "--once"])
    assert missing.exit_code == 1 and " error: " in missing.output


@pytest.mark.parametrize("keep_proofs", [True, False])
def test_removed_number_on_the_same_solver_against_brute_force(keep_proofs: bool) -> None:
    """A genre whose encoding depends on its clues (the island puzzle's: its cache key is the
    grid) re-checks a clue removed on the solver of the puzzle that had it (``REMOVED_CLUE``).
    For every number of a small grid: the re-check counts (cap 2) and finds the undecided cells
    as brute force over every shading does, and putting the number back is answered there too."""
    from itertools import product

    puzzle = api.load_text(". . . 1\n. . . .\n. . . 4\n", genre="nurikabe")[0]
    g = GENRES[puzzle.genre]
    assert g.part("REMOVED_CLUE") is not None
    clues = puzzle.clues()
    with Editor(puzzle, keep_proofs=keep_proofs) as editor:
        assert editor.check().status == "unique"
        for key in clues:
            editor.remove_clue(key)
            edited = editor.puzzle
            numbers = edited.numbers()
            free = [(r, c) for r in range(edited.rows) for c in range(edited.cols) if (r, c) not in numbers]
            solutions = []
            for marks in product(".#", repeat=len(free)):
                rows = [["."] * edited.cols for _ in range(edited.rows)]
                for (r, c), mark in zip(free, marks):
                    rows[r][c] = mark
                if not g.check(edited, tuple("".join(row) for row in rows)):
                    solutions.append({p for p, mark in zip(free, marks) if mark == "#"})
            check = editor.check()
            assert check.reused  # the solver of the puzzle with the number
            assert check.status == ("unique" if len(solutions) == 1 else "multiple")
            assert check.report.count == min(len(solutions), 2)
            varying = set.union(*solutions) - set.intersection(*solutions)
            assert set(check.report.undecided) == varying
            editor.set_clue(key, clues[key])
            back = editor.check()
            assert back.reused and back.status == "unique"


@pytest.mark.parametrize("name", sorted(n for n, g in GENRES.items() if g.part("CLUE_READS")))
def test_clue_reads_decide_the_clue(name: str) -> None:
    """A genre's ``CLUE_READS``: every solution of the puzzle with a clue removed that gives the
    parts the clue reads (in the unique solution) the same values obeys the clue, so the
    editor's question "a solution that differs there?" misses no second solution. Checked
    against every solution (the engine's enumeration) for every clue of the genre's sample."""
    from tests.helpers import engine_solutions
    from tests.test_ambiguity import part_of_key

    g = GENRES[name]
    puzzle = sample(name)
    truths: list[set] = []
    [first] = engine_solutions(g.module, puzzle, true_keys=truths)
    first_keys = frozenset(truths[0])
    parts = part_of_key(puzzle)
    for key, value in puzzle.clues().items():
        clues = puzzle.clues()
        del clues[key]
        edited = puzzle.with_clues(clues)
        keys: list[set] = []
        found = engine_solutions(g.module, edited, true_keys=keys)
        assert first in found
        read = set(g.part("CLUE_READS")(puzzle, first, key))
        at = {k for k, owners in parts.items() if owners & read}  # the primary keys read
        assert read and at
        # each enumerated solution's true keys, and the values it gives the keys read
        truths = [frozenset(true) for true in keys]
        held = next(t & at for t in truths if t == first_keys)
        agree = [t for t in truths if t & at == held]
        # the puzzle with the clue is unique: the one solution that agrees is its own
        assert agree == [first_keys], (key, value, len(found))


def test_clue_learning_sessions_answer_as_plain_ones() -> None:
    """A session that learns over the clue selectors (the editor's: each selector assumed, the
    solver keeping assumptions in learnt clauses) answers a run of clue sets, each a clue or two
    off the last, as a plain session does: the same statuses, counts and undecided parts."""
    import random

    from satgrid.ambiguity import check as check_queries
    from satgrid.queries import asking
    from satgrid.session import Session

    puzzle = sample("slitherlink")
    g = GENRES[puzzle.genre]
    learning = Session(g.encode(puzzle), clue_learning=True)
    plain = Session(g.encode(puzzle))
    rng = random.Random(3)
    keys = sorted(puzzle.clues())
    try:
        for _ in range(12):
            clues = puzzle.clues()
            for key in rng.sample(keys, rng.randint(0, 2)):
                del clues[key]
            edited = puzzle.with_clues(clues)
            reports = []
            for session in (learning, plain):
                with asking(session, clues) as queries:
                    assert (len(queries.assumptions()) > 1) == session.clue_learning
                    reports.append(check_queries(queries, edited, 2))
            a, b = reports
            assert (a.status, a.count, a.exact) == (b.status, b.count, b.exact)
            assert set(a.undecided) == set(b.undecided)
    finally:
        learning.close()
        plain.close()
