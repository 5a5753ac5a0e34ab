"""A demanding user's pass over every verb (encodings/diagnostics.md, "A user's pass over every
verb and genre"): each test here failed before its fix. Output paths that cannot be written,
input that does not read and limits reached are one-line outcomes, never a traceback or a hang."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from satgrid.cli import main

#: A 7x7 Slitherlink with one clue removed: exactly two solutions.
AMBIGUOUS_LOOP = """genre: slitherlink
122..22
1.....3
22.1..2
30....1
3...1.3
..3.32.
3..322.
"""


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def one_line_error(result, *words: str) -> None:
    """Exit status 1, no traceback, and one stderr line ``satgrid: error: ...`` holding ``words``."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("satgrid: error: "), result.stderr
    assert all(w in lines[0] for w in words), lines[0]


def test_explain_svg_into_a_file_is_one_line(tmp_path: Path) -> None:
    puzzle = tmp_path / "loop.txt"
    puzzle.write_text(AMBIGUOUS_LOOP)
    taken = tmp_path / "taken.svg"
    taken.write_text("mine")
    one_line_error(run("explain", str(puzzle), "--svg", str(taken)), str(taken), "not a directory")
    assert taken.read_text() == "mine"
    folder = tmp_path / "steps"
    (folder / "step-002.svg").mkdir(parents=True)  # a step's name taken by a directory
    one_line_error(run("explain", str(puzzle), "--svg", str(folder)), "step-002.svg", "cannot write")


def test_rules_prove_svg_into_a_file_is_one_line(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine")
    one_line_error(run("rules", "prove", "--svg", str(taken)), str(taken), "not a directory")


def test_watch_once_exits_1_on_input_that_does_not_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("genre: nurikabe\n1 . .\n. . . .\n")
    for fmt in ("text", "json"):
        result = run("watch", str(bad), "--once", "--format", fmt)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert "bad.txt:3" in result.output and len(result.output.splitlines()) == 1
    good = tmp_path / "good.txt"
    good.write_text(AMBIGUOUS_LOOP)
    result = run("watch", str(good), "--once")
    assert result.exit_code == 0 and ": multiple: " in result.output, result.output


def test_watch_standard_input_checks_once() -> None:
    """Standard input cannot change: ``watch -`` checks it once and ends (it used to poll forever)."""
    proc = subprocess.run([sys.executable, "-m", "satgrid", "watch", "-", "--format", "json"],
                          input=AMBIGUOUS_LOOP, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.splitlines()
    assert json.loads(line)["status"] == "multiple"
