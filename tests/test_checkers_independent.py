"""The independent checkers: they never import pysat, and they reject corrupted solutions."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from satgrid.genres.sudoku.checker import check_sudoku

from .helpers import shared_file

ROOT = Path(__file__).resolve().parents[1]
#: Each genre's checker, ``satgrid/genres/<genre>/checker.py``.
CHECKERS = sorted(p.parent.name for p in (ROOT / "satgrid" / "genres").glob("*/checker.py"))

#: Imports modules by name, or runs files (``path.py``) as modules of their own: a checker sits in
#: its genre's package, whose ``__init__`` holds the encoder, so the checker file is loaded alone.
PROBE = """
import importlib, importlib.util, json, sys
for name in sys.argv[1:]:
    if name.endswith(".py"):
        spec = importlib.util.spec_from_file_location("checker_" + str(len(sys.modules)), name)
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    else:
        importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m == "pysat" or m.startswith("pysat."))))
"""


def pysat_modules_after_importing(*modules: str) -> list[str]:
    """The pysat modules a fresh interpreter holds after importing ``modules`` (names or files)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *modules], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def checker_file(name: str) -> str:
    return str(ROOT / "satgrid" / "genres" / name / "checker.py")


def test_there_are_checkers() -> None:
    assert "sudoku" in CHECKERS


@pytest.mark.parametrize("name", CHECKERS)
def test_checker_does_not_import_pysat(name: str) -> None:
    assert pysat_modules_after_importing(checker_file(name)) == []


def test_all_checkers_together_do_not_import_pysat() -> None:
    assert pysat_modules_after_importing(*(checker_file(n) for n in CHECKERS)) == []


def test_the_probe_sees_pysat_when_it_is_imported() -> None:
    """The probe can fail: the encoders do import pysat."""
    assert "pysat.card" in pysat_modules_after_importing("satgrid.cnf")
    assert "pysat.card" in pysat_modules_after_importing("satgrid.genres.sudoku.checker")


# -- Sudoku ------------------------------------------------------------------------------------
def known_sudokus() -> list[tuple[str, tuple[int, int], list[list[int | None]], list[list[int]]]]:
    """(name, box, givens, solution) of every puzzle in the shared block-format file."""
    text = shared_file("sudoku", "tatham.txt").read_text()
    found = []
    for block in text.split("puzzle ")[1:]:
        lines = block.splitlines()
        meta = dict(line.split(": ", 1) for line in lines if ": " in line)
        givens_at, solution_at = lines.index("givens:"), lines.index("solution:")
        givens = [[None if t == "." else int(t) for t in line.split()] for line in lines[givens_at + 1:solution_at]]
        end = lines.index("end")
        solution = [[int(t) for t in line.split()] for line in lines[solution_at + 1:end]]
        h, w = (int(x) for x in meta["box"].split("x"))
        found.append((lines[0].strip(), (h, w), givens, solution))
    return found


def test_known_sudoku_solutions_pass() -> None:
    puzzles = known_sudokus()
    assert len(puzzles) >= 10 and {len(g) for _, _, g, _ in puzzles} >= {4, 6, 9, 16}
    for name, (h, w), givens, solution in puzzles:
        assert check_sudoku(givens, h, w, solution) == [], name


@pytest.mark.parametrize("index", range(0, 18, 3))
def test_flipping_one_cell_is_caught(index: int) -> None:
    puzzles = known_sudokus()
    name, (h, w), givens, solution = puzzles[index % len(puzzles)]
    n = len(solution)
    for r in range(n):
        for c in range(n):
            bad = [row[:] for row in solution]
            bad[r][c] = solution[r][c] % n + 1
            problems = check_sudoku(givens, h, w, bad)
            # The changed value now appears twice in its row, column and box.
            kinds = {p.split()[0] for p in problems}
            assert {"row", "column", "box"} <= kinds, (name, r, c)
            if givens[r][c] is not None:
                assert any("the given" in p for p in problems), (name, r, c)


def test_other_corruptions_are_caught() -> None:
    name, (h, w), givens, solution = known_sudokus()[0]
    n = len(solution)
    swapped = [row[:] for row in solution]
    swapped[0][0], swapped[0][1] = swapped[0][1], swapped[0][0]  # the row is still a permutation
    assert any(p.startswith("column") for p in check_sudoku(givens, h, w, swapped))
    assert check_sudoku(givens, h, w, solution[:-1]) == [f"solution is not {n}x{n}"]
    assert check_sudoku(givens, h, w, [row + [1] for row in solution]) == [f"solution is not {n}x{n}"]
    assert check_sudoku(givens, h, w, [[0] * n for _ in range(n)])  # empty cells
    assert check_sudoku(givens, h, w + 1, solution)  # boxes that do not tile the grid
    # A 6x6 solution read with 3x2 boxes instead of 2x3 breaks some box.
    six = [(g, s) for _, (bh, bw), g, s in known_sudokus() if (bh, bw) == (2, 3)]
    assert six
    for givens6, solution6 in six:
        assert check_sudoku(givens6, 2, 3, solution6) == []
        assert any(p.startswith("box") for p in check_sudoku(givens6, 3, 2, solution6))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_random_corruptions_are_caught(data) -> None:
    puzzles = known_sudokus()
    name, (h, w), givens, solution = data.draw(st.sampled_from(puzzles), label="puzzle")
    n = len(solution)
    bad = [row[:] for row in solution]
    cells = data.draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=4, unique=True),
        label="cells",
    )
    for r, c in cells:
        bad[r][c] = data.draw(st.integers(1, n).filter(lambda d, r=r, c=c: d != solution[r][c]), label="value")
    assert check_sudoku(givens, h, w, bad), name
