"""A second user's pass: exports, formats, batch and the library (encodings/diagnostics.md, "A
second user's pass: exports, formats, batch and the library"). Each test here failed before its
fix."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from satgrid.cli import main

#: A Star Battle pzprv3 and puzz.link can hold, then one with a blocked cell, which they cannot.
STARS_THEN_BLOCKED = """puzzle ok
genre: starbattle
stars: 1
givens:
1 2 2 2 2
1 3 2 2 2
4 3 3 3 2
4 4 5 3 3
4 5 5 5 5
end

puzzle blocked
genre: starbattle
stars: 1
givens:
1 1 2 2
1 # 2 2
3 3 4 4
3 3 4 4
end
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


def test_a_puzzle_pzprv3_cannot_hold_writes_nothing(tmp_path: Path) -> None:
    """``solve --format pzprv3`` wrote the answers of the puzzles before an unrepresentable one,
    then the error: redirected to a file, a partial output. Now nothing, and the line names the
    puzzle's file and line (``convert`` too, which named neither)."""
    source = tmp_path / "stars.txt"
    source.write_text(STARS_THEN_BLOCKED)
    result = run("solve", str(source), "--format", "pzprv3")
    one_line_error(result, f"{source}:12", "no blocked cells")
    assert result.stdout == ""
    for target in ("pzprv3", "url"):
        result = run("convert", str(source), "--to", target, "--solution")
        one_line_error(result, f"{source}:12", "no blocked cells")
        assert result.stdout == ""
    assert run("solve", str(source), "--format", "text").exit_code == 0
